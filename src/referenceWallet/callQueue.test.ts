import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CallQueue } from './callQueue.ts';
import { WalletLedger, type CallItem, type Handled } from './ledger.ts';
import { betBody, settleBody, tempWalletDir } from './testing.ts';

let dir: string;
let dbFile: string;
let ledger: WalletLedger;

beforeEach(() => {
  dir = tempWalletDir();
  dbFile = path.join(dir, 'wallet.sqlite');
  ledger = WalletLedger.open(dbFile);
});
afterEach(() => {
  ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bet = (request: ReturnType<typeof betBody>): CallItem => ({ call: 'bet', request });
const answer = (result: Handled | Error) => {
  if (result instanceof Error || result.kind !== 'answer') throw new Error(`not an answer: ${String(result)}`);
  return JSON.parse(result.raw) as { status: string; balanceCents?: number; transactionId?: string };
};
const balanceOf = (playerId: string) => ledger.view(playerId)!.balanceCents;

/** A real SQLite failure in the middle of a call: a trigger, added through a second connection, refuses its log line. */
function failLogLinesOf(playerId: string, how: 'ABORT' | 'ROLLBACK'): void {
  const other = new Database(dbFile);
  other.exec(`CREATE TRIGGER refuse_${playerId} BEFORE INSERT ON transactions WHEN NEW.player_id = '${playerId}'
                BEGIN SELECT RAISE(${how}, 'refused by the test'); END`);
  other.close();
}

describe('calls handled in one transaction (handleBatch)', () => {
  it('answers a repeat requestId inside the batch as the first, and REQUEST_ID_REUSED to another body', () => {
    ledger.createAccount('rep', { balanceCents: 1000 });
    const first = betBody('rep', 100);
    const results = ledger.handleBatch([bet(first), bet(first), bet({ ...first, amountCents: 200 })]);
    expect(results[1]).toEqual({ ...(results[0] as Handled), replayed: true });
    expect(answer(results[0]!)).toMatchObject({ status: 'OK', balanceCents: 900 });
    expect(answer(results[2]!)).toEqual({ status: 'REQUEST_ID_REUSED' });
    expect(balanceOf('rep')).toBe(900);
    expect(ledger.checkBalances()).toEqual([]);
  });

  it('takes two bets that together exceed the balance in order: the second sees the first', () => {
    ledger.createAccount('two', { balanceCents: 100 });
    const results = ledger.handleBatch([bet(betBody('two', 60)), bet(betBody('two', 60))]);
    expect(answer(results[0]!)).toMatchObject({ status: 'OK', balanceCents: 40 });
    expect(answer(results[1]!)).toEqual({ status: 'INSUFFICIENT_FUNDS', balanceCents: 40 });
    expect(balanceOf('two')).toBe(40);
  });

  it('settles a bet taken earlier in the same batch', () => {
    ledger.createAccount('same', { balanceCents: 500 });
    const taken = betBody('same', 100);
    const results = ledger.handleBatch([
      bet(taken),
      { call: 'win', request: settleBody(taken, 300) },
      { call: 'rollback', request: settleBody(taken, 100) },
    ]);
    expect(results.map((r) => answer(r).status)).toEqual(['OK', 'OK', 'BET_SETTLED']);
    expect(balanceOf('same')).toBe(700);
  });

  it('undoes a call that fails halfway alone: the others stand, its money and its requestId untouched', () => {
    ledger.createAccount('ok', { balanceCents: 1000 });
    ledger.createAccount('bad', { balanceCents: 1000 });
    failLogLinesOf('bad', 'ABORT');
    // The failing bet has moved its balance when its log line is refused: the savepoint takes that back.
    const failing = betBody('bad', 100);
    const results = ledger.handleBatch([bet(betBody('ok', 100)), bet(failing), bet(betBody('ok', 200))]);
    expect(answer(results[0]!)).toMatchObject({ status: 'OK', balanceCents: 900 });
    expect(results[1]).toBeInstanceOf(Error);
    expect((results[1] as Error).message).toMatch(/refused by the test/);
    expect(answer(results[2]!)).toMatchObject({ status: 'OK', balanceCents: 700 });
    expect(balanceOf('ok')).toBe(700);
    expect(balanceOf('bad')).toBe(1000);
    // Nothing was stored for it: the same call again is a new call (and fails again, the trigger still there).
    expect(ledger.handleBatch([bet(failing)])[0]).toBeInstanceOf(Error);
    expect(ledger.checkBalances()).toEqual([]);
  });

  it('keeps nothing of the batch when the transaction itself ends', () => {
    ledger.createAccount('kept', { balanceCents: 1000 });
    ledger.createAccount('ends', { balanceCents: 1000 });
    failLogLinesOf('ends', 'ROLLBACK');
    const before = betBody('kept', 100);
    expect(() => ledger.handleBatch([bet(before), bet(betBody('ends', 100)), bet(betBody('kept', 100))])).toThrow(
      /refused by the test/,
    );
    expect(balanceOf('kept')).toBe(1000);
    // The first bet was not stored either: sent again, it is taken now.
    expect(answer(ledger.handleBatch([bet(before)])[0]!)).toMatchObject({ status: 'OK', balanceCents: 900 });
  });
});

describe('CallQueue', () => {
  function observedBatches(): number[] {
    const sizes: number[] = [];
    const handleBatch = ledger.handleBatch.bind(ledger);
    ledger.handleBatch = (items) => {
      sizes.push(items.length);
      return handleBatch(items);
    };
    return sizes;
  }

  it('handles the calls of one turn together, each settling with its own result once committed', async () => {
    ledger.createAccount('q', { balanceCents: 1000 });
    const sizes = observedBatches();
    const queue = new CallQueue(ledger);
    const repeated = betBody('q', 100);
    const results = await Promise.all([
      queue.handle(bet(repeated)),
      queue.handle(bet(repeated)),
      queue.handle(bet(betBody('q', 950))),
      queue.handle({ call: 'balance', request: { requestId: 'q-balance', playerId: 'q' } }),
    ]);
    expect(sizes).toEqual([4]);
    expect(results.map((r) => answer(r))).toEqual([
      { status: 'OK', balanceCents: 900, transactionId: expect.any(String) },
      answer(results[0]!),
      { status: 'INSUFFICIENT_FUNDS', balanceCents: 900 },
      { status: 'OK', balanceCents: 900 },
    ]);
    // Calls of a later turn make a batch of their own.
    await queue.handle(bet(betBody('q', 100)));
    expect(sizes).toEqual([4, 1]);
  });

  it('rejects only the call that failed, and every call of a transaction that failed', async () => {
    ledger.createAccount('fine', { balanceCents: 1000 });
    ledger.createAccount('bad', { balanceCents: 1000 });
    ledger.createAccount('ends', { balanceCents: 1000 });
    failLogLinesOf('bad', 'ABORT');
    failLogLinesOf('ends', 'ROLLBACK');
    const queue = new CallQueue(ledger);
    const alone = await Promise.allSettled([
      queue.handle(bet(betBody('fine', 100))),
      queue.handle(bet(betBody('bad', 100))),
    ]);
    expect(alone.map((s) => s.status)).toEqual(['fulfilled', 'rejected']);
    const all = await Promise.allSettled([
      queue.handle(bet(betBody('fine', 100))),
      queue.handle(bet(betBody('ends', 100))),
    ]);
    expect(all.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(balanceOf('fine')).toBe(900);
    expect(ledger.checkBalances()).toEqual([]);
  });
});

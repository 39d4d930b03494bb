import { describe, expect, it } from 'vitest';
import type { StatementEntry } from '../../walletApi/contract.ts';
import type { OutboxEntry, WalletBetRecord } from '../store/types.ts';
import { reconcile } from './reconcile.ts';

const from = new Date('2026-11-30T00:00:00.000Z');
const to = new Date('2026-12-01T00:00:00.000Z');
const at = '2026-11-30T12:00:00.000Z';

const bet = (n: number, state: WalletBetRecord['state'], refusal: string | null = null): WalletBetRecord => ({
  requestId: `bet-${n}`,
  playId: `play-${n}`,
  playerId: 'portal-alice',
  walletPlayerId: 'alice',
  stakeCents: 200,
  state,
  refusal,
  createdAt: at,
  deadlineAt: at,
  resolvedAt: at,
});

const owed = (n: number, kind: OutboxEntry['kind'], amountCents: number, state: OutboxEntry['state']): OutboxEntry => ({
  requestId: `${kind}-${n}`,
  kind,
  betRequestId: `bet-${n}`,
  playId: `play-${n}`,
  playerId: 'portal-alice',
  walletPlayerId: 'alice',
  amountCents,
  state,
  attempts: 1,
  nextAttemptAt: at,
  lastError: null,
  answerStatus: state === 'done' ? 'OK' : null,
  balanceCents: null,
  createdAt: at,
  settledAt: at,
});

let seq = 0;
const line = (
  requestId: string,
  kind: StatementEntry['kind'],
  amountCents: number,
  movedCents: number,
): StatementEntry => ({
  seq: ++seq,
  transactionId: `wtx-${seq}`,
  kind,
  requestId,
  playerId: 'alice',
  roundId: requestId.replace(/^\w+-/, 'play-'),
  betRequestId: kind === 'bet' ? null : requestId.replace(/^\w+-/, 'bet-'),
  amountCents,
  movedCents,
  balanceAfterCents: 0,
  createdAt: at,
});

describe('reconcile', () => {
  it('agrees line by line: a sold round, a refused bet, a reversed bet taken or never seen', () => {
    const bets = [bet(1, 'sold'), bet(2, 'refused', 'INSUFFICIENT_FUNDS'), bet(3, 'cancelled'), bet(4, 'cancelled')];
    const outbox = [owed(1, 'win', 500, 'done'), owed(3, 'rollback', 200, 'done'), owed(4, 'rollback', 200, 'done')];
    const log = [
      line('bet-1', 'bet', 200, -200),
      line('win-1', 'win', 500, 500),
      line('bet-3', 'bet', 200, -200),
      line('rollback-3', 'rollback', 200, 200),
      line('rollback-4', 'rollback', 200, 0),
    ];
    const known = new Set([...bets.map((b) => b.requestId), ...outbox.map((o) => o.requestId)]);
    const report = reconcile({ bets, outbox, knownRequestIds: known }, log, from, to);
    expect(report.counts).toEqual({ agree: 7, pending: 0, differ: 0, 'unknown-to-game': 0 });
  });

  it('names each disagreement: a missing bet, a wrong win, a refused bet booked, a call the game never made', () => {
    const bets = [bet(1, 'sold'), bet(2, 'refused', 'LIMIT_REACHED'), bet(5, 'sold')];
    const outbox = [owed(1, 'win', 500, 'done'), owed(5, 'win', 0, 'pending')];
    const log = [
      line('win-1', 'win', 400, 400),
      line('bet-2', 'bet', 200, -200),
      line('bet-5', 'bet', 200, -200),
      line('bet-9', 'bet', 300, -300),
    ];
    const known = new Set(['bet-1', 'bet-2', 'bet-5', 'win-1', 'win-5']);
    const report = reconcile({ bets, outbox, knownRequestIds: known }, log, from, to);
    const by = (id: string) => report.lines.find((l) => l.requestId === id)!;
    expect(by('bet-1')).toMatchObject({ status: 'differ', detail: 'not at the wallet' });
    expect(by('win-1')).toMatchObject({ status: 'differ', gameCents: 500, walletCents: 400 });
    expect(by('bet-2')).toMatchObject({ status: 'differ', detail: 'refused (LIMIT_REACHED) but booked' });
    expect(by('bet-5')).toMatchObject({ status: 'agree' });
    expect(by('win-5')).toMatchObject({ status: 'pending' });
    expect(by('bet-9')).toMatchObject({ status: 'unknown-to-game', walletCents: 300 });
    expect(report.counts).toEqual({ agree: 1, pending: 1, differ: 3, 'unknown-to-game': 1 });
  });

  it('counts a reversal that the wallet did not apply as it should as a difference', () => {
    const report = reconcile(
      { bets: [bet(3, 'cancelled')], outbox: [owed(3, 'rollback', 200, 'done')], knownRequestIds: new Set() },
      [line('bet-3', 'bet', 200, -200), line('rollback-3', 'rollback', 200, 0)],
      from,
      to,
    );
    expect(report.lines[0]).toMatchObject({ kind: 'bet', status: 'differ', walletCents: -200 });
  });
});

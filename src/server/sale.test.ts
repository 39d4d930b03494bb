import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../emission/index.ts';
import { evaluate } from '../rules/index.ts';
import type { AccountResponse, ApiError, PlayResponse, SalesWindow } from '../contract/api.ts';
import { auditLedger } from './ops/ledgerAudit.ts';
import { SQLITE_FILE_NAME, SqliteStore } from './store/sqlite/sqliteStore.ts';
import { testBlocks, testLibrary } from './testing/blockCache.ts';
import { build, call, databaseDump, demoSession, newPlayId, type TestApp } from './testing/harness.ts';
import { testBook } from './testing/testBook.ts';

const servers: TestApp[] = [];
async function server(env: Record<string, string> = {}): Promise<TestApp> {
  const s = await build(env);
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function play(s: TestApp, token: string, stakeCents: number, playId = newPlayId()) {
  return call<PlayResponse & ApiError>(s.app, 'POST', '/api/plays', { token, body: { stakeCents, playId } });
}

/** The sold (block, position) of each play, straight from the database. */
function soldPositions(s: TestApp, playIds: string[]): Map<string, { blockId: string; position: number }> {
  const rows = s.sqlite.db
    .prepare(`SELECT play_id, block_id, position FROM plays WHERE play_id IN (${playIds.map(() => '?').join(',')})`)
    .all(...playIds) as { play_id: string; block_id: string; position: number }[];
  return new Map(rows.map((r) => [r.play_id, { blockId: r.block_id, position: r.position }]));
}

async function audit(s: TestApp) {
  // A second connection, as `npm run audit:ledger` would open against a live server.
  const library = await testLibrary();
  const store = SqliteStore.atFile(path.join(s.dataDir, SQLITE_FILE_NAME), library);
  try {
    return await store.readSnapshot(() => auditLedger(store, library));
  } finally {
    await store.close();
  }
}

let blocks: Block[];
beforeAll(async () => {
  blocks = (await testBlocks()).map((b) => b.block);
});

describe('concurrency', () => {
  /**
   * A place in the 1 € block where a balance pays for exactly 50 plays: starting there,
   * 50 plays are affordable one after another (their lots included) and leave less than
   * one stake. Computed from the block's real lots, not assumed.
   */
  function startPayingForExactly50(block: Block): { start: number; balanceCents: number } {
    for (let start = 0; start < block.header.count - 50; start++) {
      let wins = 0;
      for (let i = 0; i < 50; i++) wins += block.lotCentsAt(start + i);
      const balanceCents = 50 * 100 + 99 - wins;
      if (balanceCents < 0) continue;
      let balance = balanceCents;
      let affordable = true;
      for (let i = 0; i < 50 && affordable; i++) {
        if (balance < 100) affordable = false;
        balance += block.lotCentsAt(start + i) - 100;
      }
      if (affordable && balance === 99) return { start, balanceCents };
    }
    throw new Error('no such place in the block');
  }

  it('200 parallel plays on an account that pays for 50: exactly 50 succeed, never below zero', async () => {
    const s = await server();
    const block = blocks[0]!;
    const { start, balanceCents } = startPayingForExactly50(block);
    await testBook(s.store).forceBlockCursor(block.id, start);
    const { token, playerId } = await demoSession(s.app);
    await testBook(s.store).setBalance(playerId, balanceCents, new Date());

    const replies = await Promise.all(Array.from({ length: 200 }, () => play(s, token, 100)));
    const ok = replies.filter((r) => r.status === 200);
    expect(ok).toHaveLength(50);
    expect(replies.filter((r) => r.status === 402 && r.body.error.code === 'INSUFFICIENT_BALANCE')).toHaveLength(150);
    for (const r of ok) {
      expect(r.body.play.balanceBeforeCents).toBeGreaterThanOrEqual(100);
      expect(r.body.play.balanceAfterCents).toBeGreaterThanOrEqual(0);
    }
    const player = await s.store.getPlayer(playerId);
    expect(player!.balanceCents).toBe(99);
    // The 50 units are the next 50 of the block, each once.
    const positions = [
      ...soldPositions(
        s,
        ok.map((r) => r.body.play.playId),
      ).values(),
    ].map((p) => p.position);
    expect(positions.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => start + i));
  });
});

describe('blocks', () => {
  it('crosses from a finished block into the next without a gap', async () => {
    const s = await server();
    const [first, second] = blocks as [Block, Block];
    await testBook(s.store).forceBlockCursor(first.id, first.header.count - 3);
    const { token } = await demoSession(s.app);
    const replies = await Promise.all(Array.from({ length: 6 }, () => play(s, token, 100)));
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    const sold = soldPositions(
      s,
      replies.map((r) => r.body.play.playId),
    );
    const got = [...sold.values()].map((p) => `${p.blockId}@${p.position}`).sort();
    const n = first.header.count;
    expect(got).toEqual(
      [
        `${first.id}@${n - 3}`,
        `${first.id}@${n - 2}`,
        `${first.id}@${n - 1}`,
        `${second.id}@0`,
        `${second.id}@1`,
        `${second.id}@2`,
      ].sort(),
    );
    for (const r of replies) {
      const { blockId, position } = sold.get(r.body.play.playId)!;
      const unit = (blockId === first.id ? first : second).unitAt(position);
      expect(r.body.play.wheels).toEqual(unit.wheels);
    }
    const states = Object.fromEntries((await s.store.listBlocks()).map((b) => [b.id, b.status]));
    expect(states[first.id]).toBe('closed');
    expect(states[second.id]).toBe('open');

    // The audit sees the moved cursor as what it is: positions never sold.
    const report = await audit(s);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      `block ${first.id}: 3 units sold but positions span ${n - 3}–${n - 1}`,
      `block ${first.id}: cursor at ${n} but 3 units sold`,
    ]);
  });

  it('is SOLD_OUT, before any debit, when the last block of a stake is used up', async () => {
    const s = await server();
    const block = blocks.find((b) => b.header.stakeCents === 200)!;
    await testBook(s.store).forceBlockCursor(block.id, block.header.count - 1);
    const { token } = await demoSession(s.app);
    expect((await play(s, token, 200)).status).toBe(200);
    const before = databaseDump(s.sqlite);
    const reply = await play(s, token, 200);
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('SOLD_OUT');
    expect(databaseDump(s.sqlite)).toBe(before);
    const account = await call<AccountResponse>(s.app, 'GET', '/api/account', { token });
    expect(account.body.stakes.find((x) => x.stakeCents === 200)!.onSale).toBe(false);
    expect(account.body.stakes.find((x) => x.stakeCents === 100)!.onSale).toBe(true);
  });
});

describe('test mode', () => {
  let s: TestApp;
  let token: string;
  beforeAll(async () => {
    s = await server({ SPINCAKE_TEST_MODE: '1' });
    token = (await demoSession(s.app)).token;
  });

  it('a fixture makes the next play that pair, once, through the ledger', async () => {
    expect((await call(s.app, 'POST', '/api/test/fixture', { token, body: { pair: 'x20000' } })).status).toBe(200);
    const jackpot = await play(s, token, 100);
    expect(jackpot.status).toBe(200);
    expect(jackpot.body.play.jeu1).toEqual({ bells: 4, winCents: 1_000_000 });
    expect(jackpot.body.play.jeu2).toEqual({ points: 2000, winCents: 1_000_000 });
    expect(jackpot.body.play.winCents).toBe(2_000_000);
    expect(evaluate({ stakeCents: 100, wheels: jackpot.body.play.wheels }).winCents).toBe(2_000_000);
    expect(jackpot.body.balanceCents).toBe(jackpot.body.play.balanceBeforeCents - 100 + 2_000_000);
    const row = s.sqlite.db
      .prepare('SELECT block_id, fixture FROM plays WHERE play_id = ?')
      .get(jackpot.body.play.playId) as { block_id: string | null; fixture: number };
    expect(row).toEqual({ block_id: null, fixture: 1 });
    // The next play comes from the block again.
    const next = await play(s, token, 100);
    const nextRow = s.sqlite.db.prepare('SELECT fixture FROM plays WHERE play_id = ?').get(next.body.play.playId);
    expect(nextRow).toEqual({ fixture: 0 });
  });

  it('a fixture with a seed lays its unit out the same way every time (visual baselines)', async () => {
    const seeded = async () => {
      await call(s.app, 'POST', '/api/test/fixture', { token, body: { pair: 'x7', seed: 'visual-x7' } });
      return (await play(s, token, 100)).body.play.wheels;
    };
    const first = await seeded();
    expect(await seeded()).toEqual(first);
    await call(s.app, 'POST', '/api/test/fixture', { token, body: { pair: 'x7', seed: 'another seed' } });
    expect((await play(s, token, 100)).body.play.wheels).not.toEqual(first);
  });

  it('a refused play keeps the fixture for the next one', async () => {
    await call(s.app, 'POST', '/api/test/fixture', { token, body: { pair: 'lose' } });
    await call(s.app, 'POST', '/api/test/balance', { token, body: { balanceCents: 50 } });
    expect((await play(s, token, 100)).status).toBe(402);
    const balance = await call<{ balanceCents: number }>(s.app, 'POST', '/api/test/balance', {
      token,
      body: { balanceCents: 1000 },
    });
    expect(balance.body.balanceCents).toBe(1000);
    const lost = await play(s, token, 500);
    expect(lost.body.play.winCents).toBe(0);
    expect(lost.body.balanceCents).toBe(500);
  });

  it('refuses bad fixture and balance requests', async () => {
    for (const [route, body] of [
      ['/api/test/fixture', { pair: 'x3' }],
      ['/api/test/fixture', { pair: 'x1', seed: '' }],
      ['/api/test/balance', { balanceCents: -1 }],
      ['/api/test/balance', { balanceCents: 1.5 }],
      ['/api/test/exhaust', { stakeCents: 4 }],
      ['/api/test/sales', { open: 'no' }],
      ['/api/test/sales', { open: false, opensAt: 'next tuesday' }],
      ['/api/test/sales', { open: false, opensAt: '2026-07-01T08:00:00Z', closesAt: '2026-06-01T08:00:00Z' }],
    ] as const) {
      const reply = await call<ApiError>(s.app, 'POST', route, { token, body });
      expect(reply.status, route).toBe(400);
      expect(reply.body.error.code).toBe('INVALID_INPUT');
    }
    const noSession = await call<ApiError>(s.app, 'POST', '/api/test/fixture', { body: { pair: 'x1' } });
    expect(noSession.status).toBe(401);
  });

  it('closes sales with a message; an existing play still replays and history stays readable', async () => {
    const done = await play(s, token, 100);
    const closed = await call<SalesWindow>(s.app, 'POST', '/api/test/sales', {
      body: { open: false, message: 'Maintenance jusqu’à 14 h.' },
    });
    expect(closed.body).toEqual({ open: false, opensAt: null, closesAt: null, message: 'Maintenance jusqu’à 14 h.' });
    const before = databaseDump(s.sqlite);
    const refused = await play(s, token, 100);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'SALES_CLOSED', message: 'Maintenance jusqu’à 14 h.' });
    expect(databaseDump(s.sqlite)).toBe(before);
    const replay = await play(s, token, 100, done.body.play.playId);
    expect(replay.status).toBe(200);
    expect(replay.body.play).toEqual(done.body.play);
    const account = await call<AccountResponse>(s.app, 'GET', '/api/account', { token });
    expect(account.body.sales.open).toBe(false);
    expect(account.body.stakes.every((x) => !x.onSale)).toBe(true);
    expect((await call(s.app, 'GET', '/api/plays', { token })).status).toBe(200);
    await call(s.app, 'POST', '/api/test/sales', { body: { open: true } });
    expect((await play(s, token, 100)).status).toBe(200);
  });

  it('closes sales with the window the players are told of (the dates SALES_OPENS_AT / SALES_CLOSES_AT give)', async () => {
    const closed = await call<SalesWindow>(s.app, 'POST', '/api/test/sales', {
      body: { open: false, opensAt: '2026-06-01T08:00:00Z', closesAt: '2026-09-30T20:00:00+02:00' },
    });
    expect(closed.body).toMatchObject({
      open: false,
      opensAt: '2026-06-01T08:00:00.000Z',
      closesAt: '2026-09-30T18:00:00.000Z',
    });
    const account = await call<AccountResponse>(s.app, 'GET', '/api/account', { token });
    expect(account.body.sales).toEqual(closed.body);
    // Without dates, the configured window again (none here).
    const reopened = await call<SalesWindow>(s.app, 'POST', '/api/test/sales', { body: { open: true } });
    expect(reopened.body).toEqual({ open: true, opensAt: null, closesAt: null, message: '' });
  });

  it('exhausts a stake: SOLD_OUT, nothing debited', async () => {
    expect((await call(s.app, 'POST', '/api/test/exhaust', { body: { stakeCents: 300 } })).status).toBe(200);
    const before = databaseDump(s.sqlite);
    const reply = await play(s, token, 300);
    expect(reply.body.error.code).toBe('SOLD_OUT');
    expect(databaseDump(s.sqlite)).toBe(before);
  });

  it('leaves a ledger that passes the audit, which catches tampering', async () => {
    await call(s.app, 'POST', '/api/test/balance', { token, body: { balanceCents: 100_000 } });
    for (let i = 0; i < 20; i++) expect((await play(s, token, [100, 200, 500][i % 3]!)).status).toBe(200);
    const report = await audit(s);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.plays).toBeGreaterThan(20);

    const library = await testLibrary();
    const store = SqliteStore.atFile(path.join(s.dataDir, SQLITE_FILE_NAME), library);
    const tamperings: [string, string, RegExp][] = [
      [
        'a stake debit removed',
        `DELETE FROM entries WHERE id = (SELECT MIN(id) FROM entries WHERE kind = 'stake' AND amount_cents < 0)`,
        /0 stake debits/,
      ],
      [
        'a balance raised',
        `UPDATE players SET balance_cents = balance_cents + 100 WHERE id = (SELECT MIN(id) FROM players)`,
        /balance .* but entries sum to/,
      ],
      [
        'a unit swapped for another of the same lot',
        `UPDATE plays SET unit_code = (SELECT unit_code FROM plays p2 WHERE p2.win_cents = plays.win_cents
           AND p2.stake_cents = plays.stake_cents AND p2.play_id <> plays.play_id AND p2.unit_code <> plays.unit_code LIMIT 1)
         WHERE seq = (SELECT MIN(seq) FROM plays p3 WHERE p3.fixture = 0 AND EXISTS (SELECT 1 FROM plays p2
           WHERE p2.win_cents = p3.win_cents AND p2.stake_cents = p3.stake_cents AND p2.unit_code <> p3.unit_code))`,
        /not the block file's unit/,
      ],
      [
        'a prize credited twice',
        `INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at)
         SELECT txn, account, amount_cents, play_id, kind, created_at FROM entries WHERE kind = 'prize' AND amount_cents > 0 LIMIT 1`,
        /sums to|2 prize credits/,
      ],
    ];
    try {
      for (const [label, sql, expected] of tamperings) {
        store.db.exec('BEGIN');
        try {
          expect(store.db.prepare(sql).run().changes, label).toBe(1);
          const tampered = await auditLedger(store, library);
          expect(tampered.ok, label).toBe(false);
          expect(tampered.problems.join('\n'), label).toMatch(expected);
        } finally {
          store.db.exec('ROLLBACK');
        }
      }
    } finally {
      await store.close();
    }
  });
});

describe('sales window from the configuration', () => {
  it('refuses plays before the window opens, with the configured message', async () => {
    const s = await server({
      SALES_OPENS_AT: '2999-01-01T00:00:00Z',
      SALES_CLOSED_MESSAGE: 'Ouverture le 1er janvier 2999.',
    });
    const { token } = await demoSession(s.app);
    const reply = await play(s, token, 100);
    expect(reply.status).toBe(403);
    expect(reply.body.error).toEqual({ code: 'SALES_CLOSED', message: 'Ouverture le 1er janvier 2999.' });
    const account = await call<AccountResponse>(s.app, 'GET', '/api/account', { token });
    expect(account.body.sales).toEqual({
      open: false,
      opensAt: '2999-01-01T00:00:00.000Z',
      closesAt: null,
      message: 'Ouverture le 1er janvier 2999.',
    });
  });
});

describe('rate limiting', () => {
  it('limits each session on its own, with RATE_LIMITED', async () => {
    const s = await server({ RATE_LIMIT_PER_MINUTE: '5' });
    const alice = await demoSession(s.app);
    const bob = await demoSession(s.app);
    for (let i = 0; i < 5; i++)
      expect((await call(s.app, 'GET', '/api/account', { token: alice.token })).status).toBe(200);
    const limited = await call<ApiError>(s.app, 'GET', '/api/account', { token: alice.token });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    const before = databaseDump(s.sqlite);
    expect((await play(s, alice.token, 100)).status).toBe(429);
    expect(databaseDump(s.sqlite)).toBe(before);
    expect((await call(s.app, 'GET', '/api/account', { token: bob.token })).status).toBe(200);
  });
});

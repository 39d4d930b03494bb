import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../../rules/index.ts';
import type { ApiError, PlayResponse, PlaysPage } from '../../../contract/api.ts';
import type { BlockLibrary } from '../../blocks/blockLibrary.ts';
import { auditLedger } from '../../ops/ledgerAudit.ts';
import { testLibrary } from '../../testing/blockCache.ts';
import { build, call, demoSession, newPlayId, type Target, type TestApp } from '../../testing/harness.ts';
import { createTestDatabase, postgresDump, postgresReachable, type TestDatabase } from '../../testing/postgres.ts';
import { PostgresDialect } from './postgresDialect.ts';
import { testBook } from '../../testing/testBook.ts';

/**
 * The key server tests again, through HTTP, with DATABASE_URL naming PostgreSQL: the
 * same server code chooses the PostgreSQL store and must keep the same promises.
 */
const reachable = await postgresReachable();

let database: TestDatabase;
let server: TestApp;
let api: Target;
let library: BlockLibrary;

async function play(token: string, stakeCents: unknown, playId: unknown = newPlayId()) {
  return call<PlayResponse & ApiError>(api, 'POST', '/api/plays', { token, body: { stakeCents, playId } });
}

describe.skipIf(!reachable)('the server on PostgreSQL', () => {
  beforeAll(async () => {
    library = await testLibrary();
    database = await createTestDatabase();
    server = await build({ DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '100000' });
    api = server.app;
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('runs on the PostgreSQL store', () => {
    expect(server.store.dialect).toBeInstanceOf(PostgresDialect);
  });

  it('answers the same play twice, in sequence and concurrently, with one debit', async () => {
    const { token, playerId } = await demoSession(api);
    const playId = newPlayId();
    const first = await play(token, 200, playId);
    expect(first.status).toBe(200);
    const again = await Promise.all(Array.from({ length: 20 }, () => play(token, 200, playId)));
    for (const reply of again) {
      expect(reply.status).toBe(200);
      expect(reply.body.play).toEqual(first.body.play);
    }
    const fresh = newPlayId();
    const burst = await Promise.all(Array.from({ length: 20 }, () => play(token, 500, fresh)));
    expect(new Set(burst.map((r) => JSON.stringify(r.body.play))).size).toBe(1);
    const reused = await play(token, 100, playId);
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('PLAY_ID_REUSED');
    const history = await call<PlaysPage>(api, 'GET', '/api/plays?limit=10', { token });
    expect(history.body.plays).toHaveLength(2);
    const lots = history.body.plays.map((p) => p.winCents);
    expect((await server.store.getPlayer(playerId))!.balanceCents).toBe(10_000 - 700 + lots[0]! + lots[1]!);
  });

  it('sells exactly what the balance allows out of 200 parallel plays, never below zero', async () => {
    const { token, playerId } = await demoSession(api);
    await testBook(server.store).setBalance(playerId, 50 * 300, new Date());
    const block = (await server.store.listBlocks()).find((b) => b.stakeCents === 300)!;
    const replies = await Promise.all(Array.from({ length: 200 }, () => play(token, 300)));
    const sold = replies.filter((r) => r.status === 200).map((r) => r.body.play);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused.every((r) => r.status === 402 && r.body.error.code === 'INSUFFICIENT_BALANCE')).toBe(true);
    let balance = 50 * 300;
    let expected = 0;
    for (let position = block.nextPosition; expected < 200 && balance >= 300; position++, expected++) {
      balance += evaluate(library.unitAt(block, position)).winCents - 300;
    }
    expect(sold).toHaveLength(expected);
    expect(sold.length).toBeGreaterThanOrEqual(50);
    expect(sold.every((p) => p.balanceAfterCents >= 0)).toBe(true);
    expect((await server.store.getPlayer(playerId))!.balanceCents).toBe(balance);
  });

  it.each([
    ['stake -1', { stakeCents: -1 }],
    ['stake 0', { stakeCents: 0 }],
    ['stake 4', { stakeCents: 4 }],
    ['stake 1.5', { stakeCents: 1.5 }],
    ['stake "100"', { stakeCents: '100' }],
    ['stake null', { stakeCents: null }],
    ['no stake', {}],
    ['an extra field', { stakeCents: 100, balanceCents: 1_000_000 }],
    ['a non-UUID playId', { stakeCents: 100, playId: 'not-a-uuid' }],
  ])('refuses %s with 400 and leaves the database unchanged', async (_label, fields) => {
    const { token } = await demoSession(api);
    const before = await postgresDump(database.url);
    const reply = await call<ApiError>(api, 'POST', '/api/plays', {
      token,
      body: { playId: newPlayId(), ...fields },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_INPUT');
    expect(await postgresDump(database.url)).toBe(before);
  });

  it.each([
    ['malformed JSON', { raw: '{"stakeCents": 100,' }],
    ['a 1 MB body', { raw: JSON.stringify({ stakeCents: 100, playId: newPlayId(), pad: 'x'.repeat(1 << 20) }) }],
    ['a wrong content type', { raw: 'stakeCents=100', contentType: 'application/x-www-form-urlencoded' }],
  ])('refuses %s with a 4xx and leaves the database unchanged', async (_label, options) => {
    const { token } = await demoSession(api);
    const before = await postgresDump(database.url);
    const reply = await call<ApiError>(api, 'POST', '/api/plays', { token, ...options });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(await postgresDump(database.url)).toBe(before);
  });

  it('refuses a play without a session and leaves the database unchanged', async () => {
    const before = await postgresDump(database.url);
    const reply = await call<ApiError>(api, 'POST', '/api/plays', { body: { stakeCents: 100, playId: newPlayId() } });
    expect(reply.status).toBe(401);
    expect(await postgresDump(database.url)).toBe(before);
  });

  it('passes the ledger check after all of the above (before any forced cursor)', async () => {
    const report = await server.store.readSnapshot(() => auditLedger(server.store, library));
    expect(report.problems).toEqual([]);
    expect(report.plays).toBeGreaterThan(50);
  });

  it('crosses from one block into the next without a gap', async () => {
    const { token } = await demoSession(api);
    const [first, second] = (await server.store.listBlocks()).filter((b) => b.stakeCents === 100);
    const soldBefore = (await server.store.ledgerFacts()).blockCursors.find((c) => c.block.id === first!.id)!.sold;
    expect(soldBefore).toBe(0); // no 1 € play before this test
    await testBook(server.store).forceBlockCursor(first!.id, first!.count - 5);
    const replies = await Promise.all(Array.from({ length: 12 }, () => play(token, 100)));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
    const facts = await server.store.ledgerFacts();
    const a = facts.blockCursors.find((c) => c.block.id === first!.id)!;
    const b = facts.blockCursors.find((c) => c.block.id === second!.id)!;
    expect(a.block).toMatchObject({ status: 'closed', nextPosition: first!.count });
    expect(a.sold - soldBefore).toBe(5);
    expect(a.maxPosition).toBe(first!.count - 1);
    expect(b).toMatchObject({ sold: 7, minPosition: 0, maxPosition: 6 });
    expect(b.block).toMatchObject({ status: 'open', nextPosition: 7 });
    // The forced cursor skipped positions on purpose: the ledger check sees exactly that gap, nothing else.
    const report = await server.store.readSnapshot(() => auditLedger(server.store, library));
    expect(report.problems).toEqual([
      `block ${first!.id}: ${a.sold} units sold but positions span ${first!.count - 5}–${first!.count - 1}`,
      `block ${first!.id}: cursor at ${first!.count} but ${a.sold} units sold`,
    ]);
  });
});

afterAll(() => {
  if (!reachable) console.warn('server-on-PostgreSQL tests skipped: PostgreSQL not reachable');
});

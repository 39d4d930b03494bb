import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StakeCents } from '../../../rules/index.ts';
import type { BlockLibrary } from '../../blocks/blockLibrary.ts';
import { auditLedger } from '../../ops/ledgerAudit.ts';
import { testLibrary } from '../../testing/blockCache.ts';
import { addTestBlocks } from '../../testing/harness.ts';
import { createTestDatabase, lockWaiter, postgresReachable, type TestDatabase } from '../../testing/postgres.ts';
import type { BuyResult } from '../types.ts';
import { PostgresStore, type PostgresStoreOptions } from './postgresStore.ts';
import { WAL_BARRIER_SQL } from './walBarrier.ts';
import { testBook } from '../../testing/testBook.ts';

/**
 * What only PostgreSQL can do wrong: deadlocks, serialization failures, connections
 * killed mid-transaction, and two instances (two pools) selling from one cursor.
 */
const reachable = await postgresReachable();

let library: BlockLibrary;
let database: TestDatabase;
let stores: PostgresStore[] = [];
let admin: pg.Client;

async function openStore(options?: PostgresStoreOptions): Promise<PostgresStore> {
  const store = await PostgresStore.connect(database.url, library, options);
  stores.push(store);
  return store;
}

function ok(result: BuyResult) {
  if (!result.ok) throw new Error(`play refused: ${result.code}`);
  return result;
}

function buy(store: PostgresStore, playerId: string, stakeCents: StakeCents, playId = randomUUID()) {
  return store.buyPlay({ playerId, playId, stakeCents, pool: 'demo', salesOpen: true, now: new Date() });
}

describe.skipIf(!reachable)('PostgreSQL store', () => {
  beforeAll(async () => {
    library = await testLibrary();
  });
  beforeEach(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterEach(async () => {
    await admin.end().catch(() => {});
    await Promise.all(stores.map((s) => s.close()));
    stores = [];
    await database.drop();
  });

  it('applies each migration once and refuses a database newer than itself', async () => {
    await openStore();
    await openStore();
    const { rows } = await admin.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 },
      { version: 5 },
      { version: 6 },
      { version: 7 },
      { version: 8 },
    ]);
    const outboxIndexes = await admin.query(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'wallet_outbox' ORDER BY indexname`,
    );
    // Version 4 dropped the by-time index, which no query needs.
    expect(outboxIndexes.rows.map((r: { indexname: string }) => r.indexname)).toEqual([
      'wallet_outbox_bet_request_id_key',
      'wallet_outbox_due',
      'wallet_outbox_pkey',
    ]);
    await admin.query(`INSERT INTO schema_migrations VALUES (99, 'from the future', '2030-01-01')`);
    await expect(PostgresStore.connect(database.url, library)).rejects.toThrow(/schema version 99, newer/);
  });

  it('says where it failed to connect, without the password', async () => {
    const url = new URL(database.url);
    url.password = 'secret-password';
    url.port = '1';
    await expect(PostgresStore.connect(url.toString(), library)).rejects.toThrow(
      /cannot connect to PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\//,
    );
  });

  it('retries a play chosen as a deadlock victim, with one debit', async () => {
    const store = await openStore();
    await addTestBlocks(store);
    const player = await store.createDemoPlayer(10_000, new Date());
    const block = (await store.listBlocks())[0]!;
    // The test's side waits 10 s before it looks for deadlocks, so the play's side (1 s) is the victim.
    await admin.query(`SET deadlock_timeout = '10s'`);
    await admin.query('BEGIN');
    await admin.query('SELECT 1 FROM blocks WHERE id = $1 FOR UPDATE', [block.id]);
    const playing = buy(store, player.id, 100);
    await lockWaiter(admin); // the play holds its player row and waits for the block
    await admin.query('SELECT 1 FROM players WHERE id = $1 FOR UPDATE', [player.id]);
    await admin.query('COMMIT');
    const result = ok(await playing);
    expect(result.play.position).toBe(0);
    expect(store.stats.retriedCodes['40P01']).toBe(1);
    expect((await store.getPlayer(player.id))!.balanceCents).toBe(result.balanceCents);
    expect((await store.readSnapshot(() => auditLedger(store, library))).problems).toEqual([]);
  });

  it('retries a serialization failure under SERIALIZABLE, with the same playId', async () => {
    const store = await openStore({ options: '-c default_transaction_isolation=serializable' });
    await addTestBlocks(store);
    const player = await store.createDemoPlayer(10_000, new Date());
    const block = (await store.listBlocks())[0]!;
    await admin.query('BEGIN');
    await admin.query('UPDATE blocks SET loaded_at = loaded_at WHERE id = $1', [block.id]);
    const playId = randomUUID();
    const playing = buy(store, player.id, 100, playId);
    await lockWaiter(admin); // its snapshot is taken, and the block row changes under it
    await admin.query('COMMIT');
    const result = ok(await playing);
    expect(result.play.playId).toBe(playId);
    expect(store.stats.retriedCodes['40001']).toBe(1);
    const plays = await admin.query('SELECT play_id FROM plays');
    expect(plays.rows).toEqual([{ play_id: playId }]);
    expect((await store.readSnapshot(() => auditLedger(store, library))).problems).toEqual([]);
  });

  it('leaves nothing half-done when the connection dies mid-transaction, and sells on a new one', async () => {
    const store = await openStore();
    await addTestBlocks(store);
    const player = await store.createDemoPlayer(10_000, new Date());
    const block = (await store.listBlocks())[0]!;
    await admin.query('BEGIN');
    await admin.query('SELECT 1 FROM blocks WHERE id = $1 FOR UPDATE', [block.id]);
    const playing = Promise.all([buy(store, player.id, 100), buy(store, player.id, 100)]);
    const pid = await lockWaiter(admin);
    // The play transaction has locked the player and read the plays: kill its connection there.
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.query('ROLLBACK');
    const results = (await playing).map(ok);
    expect(results.map((r) => r.play.position).sort()).toEqual([0, 1]);
    expect(store.stats.retriedCodes['57P01']).toBe(1);
    const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM entries WHERE play_id IS NOT NULL');
    expect(results.every((r) => r.play.winCents >= 0)).toBe(true);
    expect(Number(rows[0]!.n)).toBe(results.reduce((n, r) => n + (r.play.winCents > 0 ? 4 : 2), 0));
    expect((await store.readSnapshot(() => auditLedger(store, library))).problems).toEqual([]);
  });

  it('two instances sell one stake concurrently across a block change-over: no unit twice, no gap', async () => {
    const one = await openStore({ maxBatch: 16 });
    const two = await openStore({ maxBatch: 16 });
    await addTestBlocks(one);
    const [first, second] = (await one.listBlocks()).filter((b) => b.stakeCents === 100);
    const start = first!.count - 150;
    await testBook(one).forceBlockCursor(first!.id, start);
    const players = await Promise.all(Array.from({ length: 10 }, () => one.createDemoPlayer(1_000_000, new Date())));
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) => buy(i % 2 ? one : two, players[i % players.length]!.id, 100)),
    );
    const plays = results.map((r) => ok(r).play);
    const inFirst = plays.filter((p) => p.blockId === first!.id).map((p) => p.position!);
    const inSecond = plays.filter((p) => p.blockId === second!.id).map((p) => p.position!);
    expect(inFirst.sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => start + i));
    expect(inSecond.sort((a, b) => a - b)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(one.stats.plays + two.stats.plays).toBe(400);
    const report = await one.readSnapshot(() => auditLedger(one, library));
    // The forced cursor leaves positions 0…start-1 unsold, which the check rightly reports; nothing else.
    expect(report.problems).toEqual([
      `block ${first!.id}: 150 units sold but positions span ${start}–${first!.count - 1}`,
      `block ${first!.id}: cursor at ${first!.count} but 150 units sold`,
    ]);
  });

  it('the same playId sent to two instances at once is sold once', async () => {
    const one = await openStore();
    const two = await openStore();
    await addTestBlocks(one);
    const player = await one.createDemoPlayer(1_000_000, new Date());
    for (let i = 0; i < 20; i++) {
      const playId = randomUUID();
      const [a, b] = await Promise.all([buy(one, player.id, 200, playId), buy(two, player.id, 200, playId)]);
      expect(ok(a).play).toEqual(ok(b).play);
      expect([ok(a).replayed, ok(b).replayed].sort()).toEqual([false, true]);
    }
    const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM plays');
    expect(Number(rows[0]!.n)).toBe(20);
    expect((await one.readSnapshot(() => auditLedger(one, library))).problems).toEqual([]);
  });

  it('answers a play only after a log flush that began after its commit, and frees the cursor before that', async () => {
    const one = await openStore();
    const two = await openStore();
    await addTestBlocks(one);
    const player = await one.createDemoPlayer(10_000, new Date());
    // Hold instance one's flush barriers until the test lets them go.
    const held: (() => void)[] = [];
    let holding = true;
    type Query = (text: string, ...rest: unknown[]) => Promise<unknown>;
    const query = one.pool.query.bind(one.pool) as Query;
    (one.pool as unknown as { query: Query }).query = (text, ...rest) =>
      holding && text === WAL_BARRIER_SQL
        ? new Promise((resolve) => held.push(() => resolve(query(text))))
        : query(text, ...rest);

    let answered = false;
    const first = buy(one, player.id, 100).then((result) => ((answered = true), result));
    for (let i = 0; i < 500 && held.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(held).toHaveLength(1);
    // Committed, yet not answered while its flush has not run.
    const { rows } = await admin.query<{ position: number }>('SELECT position FROM plays');
    expect(rows.map((r) => r.position)).toEqual([0]);
    expect(answered).toBe(false);
    // Meanwhile the block cursor is free: another instance sells the next unit of the stake.
    const second = ok(await buy(two, player.id, 100));
    expect(second.play.position).toBe(1);
    expect(answered).toBe(false);
    // A read through instance one waits for a flush too.
    let read = false;
    const balance = one.getPlayer(player.id).then((p) => ((read = true), p));
    // So do the blocks and the stakes on sale: a cursor or a sold-out stake could still be taken back.
    let blocksRead = false;
    let stakesRead = false;
    const blocks = one.listBlocks().then((list) => ((blocksRead = true), list));
    const stakes = one.stakesWithUnits('demo').then((set) => ((stakesRead = true), set));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(read).toBe(false);
    expect(blocksRead).toBe(false);
    expect(stakesRead).toBe(false);
    holding = false;
    while (held.length > 0) held.shift()!();
    for (let i = 0; i < 500 && !(answered && read && blocksRead && stakesRead); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(ok(await first).play.position).toBe(0);
    expect((await balance)!.balanceCents).toBe(second.balanceCents);
    expect((await blocks).find((b) => b.stakeCents === 100 && b.status === 'open')!.nextPosition).toBe(2);
    expect((await stakes).has(100)).toBe(true);
    expect((await one.readSnapshot(() => auditLedger(one, library))).problems).toEqual([]);
  });
});

afterAll(() => {
  if (!reachable) console.warn('PostgreSQL store tests skipped: PostgreSQL not reachable');
});

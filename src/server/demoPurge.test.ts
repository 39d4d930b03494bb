import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StakeCents } from '../rules/index.ts';
import type { BlockLibrary } from './blocks/blockLibrary.ts';
import { purgeIdleDemoPlayers } from './demoPurge.ts';
import { auditLedger } from './ops/ledgerAudit.ts';
import { openSessionBook } from './sessions/openSessionBook.ts';
import type { SessionBook } from './sessions/sessionBook.ts';
import { PostgresStore as PostgresStoreClass, type PostgresStore } from './store/postgres/postgresStore.ts';
import type { SqliteStore } from './store/sqlite/sqliteStore.ts';
import type { BlockPool, Store } from './store/types.ts';
import { testLibrary } from './testing/blockCache.ts';
import { addTestBlocks } from './testing/harness.ts';
import { storeKinds, type OpenedStore, type StoreKind } from './testing/stores.ts';
import { testBook } from './testing/testBook.ts';

/**
 * The purge of idle demo players (issue 29), on both databases: only old demo players go,
 * with their demo plays, ledger transactions and sessions; real money, recent players and
 * players with a play from before pools stay; the ledger audit still proves every block.
 */
const kinds = await storeKinds();
const DAY = 86_400_000;
const NOW = new Date('2026-12-01T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

let library: BlockLibrary;
beforeAll(async () => {
  library = await testLibrary();
});

/** A statement straight on the database, `?` placeholders (a tamperer's, or a past server's). */
async function raw<R>(kind: StoreKind, store: Store, text: string, params: unknown[] = []): Promise<R[]> {
  if (kind.name === 'sqlite') {
    const statement = (store as SqliteStore).db.prepare(text);
    return statement.reader ? (statement.all(...params) as R[]) : (statement.run(...params), []);
  }
  let n = 0;
  const numbered = text.replace(/\?/g, () => `$${++n}`);
  return (await (store as PostgresStore).pool.query(numbered, params)).rows as R[];
}

async function play(store: Store, playerId: string, pool: BlockPool, at: Date) {
  const result = await store.buyPlay({
    playerId,
    playId: randomUUID(),
    stakeCents: 200 as StakeCents,
    pool,
    salesOpen: true,
    now: at,
  });
  if (!result.ok) throw new Error(`play refused: ${result.code}`);
  return result.play;
}

async function audit(store: Store) {
  return store.readSnapshot(() => auditLedger(store, library));
}

describe.each(kinds)('the demo purge on $name', (kind) => {
  let opened: OpenedStore;
  let store: Store;
  let sessions: SessionBook;

  beforeEach(async (context) => {
    if (!kind.available) return context.skip();
    opened = await kind.open(library);
    store = opened.store;
    await addTestBlocks(store, ['demo', 'real']);
    sessions = await openSessionBook({ dataDir: opened.env.DATA_DIR!, databaseUrl: opened.env.DATABASE_URL ?? null });
  });
  afterEach(async () => {
    await sessions?.close();
    await opened?.destroy();
  });
  afterAll(() => {
    if (!kind.available) console.warn(`${kind.name} demo purge tests skipped: database not reachable`);
  });

  /** Players of every sort, their plays interleaved in the blocks (the purge leaves gaps). */
  async function population() {
    const old = await store.createDemoPlayer(10_000, daysAgo(45));
    const back = await store.createDemoPlayer(10_000, daysAgo(45));
    const fresh = await store.createDemoPlayer(10_000, daysAgo(2));
    const prePools = await store.createDemoPlayer(10_000, daysAgo(45));
    const online = await store.createDemoPlayer(10_000, daysAgo(45));
    const portal = await store.ensurePortalPlayer('portal-bob', daysAgo(45));
    await testBook(store).setBalance(portal.id, 5_000, daysAgo(45));
    for (let i = 0; i < 3; i++) {
      await play(store, old.id, 'demo', daysAgo(40));
      await play(store, back.id, 'demo', daysAgo(40));
      await play(store, portal.id, 'real', daysAgo(40));
    }
    await play(store, back.id, 'demo', daysAgo(1));
    await play(store, online.id, 'demo', daysAgo(40));
    // A play as a server before pools sold it: no pool recorded (its block was real then).
    const before = await play(store, prePools.id, 'demo', daysAgo(40));
    await raw(kind, store, 'UPDATE plays SET pool = NULL WHERE play_id = ?', [before.playId]);
    const sessionOf = async (playerId: string, lastSeen: Date) => {
      const sessionId = randomUUID();
      await sessions.openSession({
        sessionId,
        playerId,
        createdAt: daysAgo(40).toISOString(),
        expiresAt: daysAgo(-300).toISOString(),
      });
      await sessions.touch([{ sessionId, lastSeenAt: lastSeen.toISOString() }]);
      return sessionId;
    };
    const oldSession = await sessionOf(old.id, daysAgo(39));
    const onlineSession = await sessionOf(online.id, daysAgo(3));
    return { old, back, fresh, prePools, online, portal, oldSession, onlineSession };
  }

  /** Everything of the portal player's money: plays, balance, entries of its transactions. */
  async function realBooks(portalId: string) {
    return {
      player: await store.getPlayer(portalId),
      plays: await store.listPlays({ playerId: portalId, limit: 100 }),
      entries: await raw(
        kind,
        store,
        `SELECT txn, account, amount_cents, play_id, kind, created_at FROM entries
         WHERE txn IN (SELECT txn FROM entries WHERE account = ?) ORDER BY id`,
        [`player:${portalId}`],
      ),
    };
  }

  it('removes only idle demo players, with their plays, entries and sessions; the audit still passes', async () => {
    const p = await population();
    const realBefore = await realBooks(p.portal.id);
    expect((await audit(store)).problems).toEqual([]);

    const dry = await purgeIdleDemoPlayers(store, sessions, { days: 30, now: NOW, dryRun: true });
    expect(dry).toEqual({ players: 1, plays: 3, dryRun: true });
    expect(await store.getPlayer(p.old.id)).not.toBeNull();

    const result = await purgeIdleDemoPlayers(store, sessions, { days: 30, now: NOW, batchSize: 2 });
    expect(result).toEqual({ players: 1, plays: 3, dryRun: false });
    expect(await store.getPlayer(p.old.id)).toBeNull();
    expect((await store.listPlays({ playerId: p.old.id, limit: 10 })).plays).toEqual([]);
    const entries = await raw<{ n: number }>(kind, store, 'SELECT COUNT(*) AS n FROM entries WHERE account = ?', [
      `player:${p.old.id}`,
    ]);
    expect(Number(entries[0]!.n)).toBe(0);
    expect((await sessions.state(p.oldSession))!.revokedAt).toBe(NOW.toISOString());
    // Played lately, new, a play from before pools, a session in use, real money: all kept.
    for (const kept of [p.back, p.fresh, p.prePools, p.online, p.portal]) {
      expect(await store.getPlayer(kept.id)).not.toBeNull();
    }
    expect((await store.listPlays({ playerId: p.back.id, limit: 10 })).plays).toHaveLength(4);
    expect((await sessions.state(p.onlineSession))!.revokedAt).toBeNull();
    expect(await realBooks(p.portal.id)).toEqual(realBefore);

    const report = await audit(store);
    expect(report.problems).toEqual([]);
    expect(report.purgedDemo.plays).toBe(3);
    expect(report.purgedDemo.stakesCents).toBe(600);

    // Nothing left to do: a second run (another instance's) removes nothing.
    expect(await purgeIdleDemoPlayers(store, sessions, { days: 30, now: NOW })).toEqual({
      players: 0,
      plays: 0,
      dryRun: false,
    });
  });

  it('removes an idle demo player who reloaded the demo, with its reloads', async () => {
    const reloader = await store.createDemoPlayer(100, daysAgo(45));
    await testBook(store).setBalance(reloader.id, 0, daysAgo(44));
    const reload = await store.reloadDemo({
      playerId: reloader.id,
      reloadId: randomUUID(),
      toCents: 10_000,
      belowCents: 100,
      now: daysAgo(44),
    });
    expect(reload.ok).toBe(true);
    await play(store, reloader.id, 'demo', daysAgo(43));

    expect(await purgeIdleDemoPlayers(store, sessions, { days: 30, now: NOW })).toMatchObject({ players: 1, plays: 1 });
    expect(await store.getPlayer(reloader.id)).toBeNull();
    const reloads = await raw<{ n: number }>(
      kind,
      store,
      'SELECT COUNT(*) AS n FROM demo_reloads WHERE player_id = ?',
      [reloader.id],
    );
    expect(Number(reloads[0]!.n)).toBe(0);
    expect((await audit(store)).problems).toEqual([]);
  });

  it('removes each player once when two instances purge at once', async () => {
    const p = await population();
    const url = opened.env.DATABASE_URL;
    // Another instance: its own store on the same database (SQLite: the same store, one writer).
    const other = url ? await PostgresStoreClass.connect(url, library) : store;
    try {
      const results = await Promise.all([
        purgeIdleDemoPlayers(store, sessions, { days: 30, now: NOW }),
        purgeIdleDemoPlayers(other, sessions, { days: 30, now: NOW }),
      ]);
      expect(results.map((r) => r.players).reduce((a, b) => a + b)).toBe(1);
      expect(results.map((r) => r.plays).reduce((a, b) => a + b)).toBe(3);
    } finally {
      if (other !== store) await other.close();
    }
    expect(await store.getPlayer(p.old.id)).toBeNull();
    const report = await audit(store);
    expect(report.problems).toEqual([]);
    expect(report.purgedDemo.plays).toBe(3);
  });

  it('still catches a play missing, or counted as purged without its position', async () => {
    const p = await population();
    await purgeIdleDemoPlayers(store, sessions, { days: 30, now: NOW });
    expect((await audit(store)).ok).toBe(true);
    const [kept] = (await store.listPlays({ playerId: p.back.id, limit: 10 })).plays.slice(-1);

    // A play of a kept player deleted outside the purge: the cursor no longer adds up.
    await raw(kind, store, 'DELETE FROM entries WHERE play_id = ?', [kept!.playId]);
    await raw(kind, store, 'DELETE FROM plays WHERE play_id = ?', [kept!.playId]);
    const missing = await audit(store);
    expect(missing.ok).toBe(false);
    expect(missing.problems.join('\n')).toMatch(/cursor at \d+ but \d+ units sold \(\d+ plays kept, 3 purged\)/);

    // …and counted as purged by hand, without its position: the positions' sum shows it.
    await raw(
      kind,
      store,
      `INSERT INTO purged_plays (block_id, win_cents, plays, position_sum) VALUES (?, ?, 1, 0)
       ON CONFLICT (block_id, win_cents) DO UPDATE SET plays = purged_plays.plays + 1`,
      [kept!.blockId, kept!.winCents],
    );
    const miscounted = await audit(store);
    expect(miscounted.ok).toBe(false);
    expect(miscounted.problems.join('\n')).toMatch(/positions of the \d+ plays kept and \d+ purged sum to/);
  });

  it('catches a tampered unit of a play kept after a purge', async () => {
    const p = await population();
    await purgeIdleDemoPlayers(store, sessions, { days: 30, now: NOW });
    const [kept] = (await store.listPlays({ playerId: p.back.id, limit: 1 })).plays;
    await raw(kind, store, 'UPDATE plays SET unit_code = ? WHERE play_id = ?', [
      await otherUnitCode(kept!.playId),
      kept!.playId,
    ]);
    const report = await audit(store);
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toContain(`play ${kept!.playId}:`);
  });

  /** The unit code of another play of the same stake (a swap a tamperer could make). */
  async function otherUnitCode(playId: string): Promise<string> {
    const rows = await raw<{ unit_code: string }>(
      kind,
      store,
      'SELECT unit_code FROM plays WHERE play_id <> ? AND stake_cents = 200 AND unit_code <> (SELECT unit_code FROM plays WHERE play_id = ?)',
      [playId, playId],
    );
    return rows[0]!.unit_code;
  }
});

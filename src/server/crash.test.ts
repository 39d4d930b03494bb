import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Play, PlayResponse, SessionResponse } from '../contract/api.ts';
import { auditLedger } from './ops/ledgerAudit.ts';
import { SQLITE_FILE_NAME, SqliteStore } from './store/sqlite/sqliteStore.ts';
import { testLibrary } from './testing/blockCache.ts';
import { spawnServer, type ChildServer } from './testing/child.ts';
import { addTestBlocks, call, newPlayId, tempDataDir } from './testing/harness.ts';

const dataDir = tempDataDir();
let running: ChildServer | null = null;

// The test blocks and their commitments read before the clock of the test starts (nine blocks, seconds).
beforeAll(() => testLibrary().then(() => undefined), 240_000);

afterAll(() => {
  running?.process.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const STAKES = [100, 200, 300, 500] as const;
const MIN_ACKS_PER_ROUND = 30;
const CRASHES = 4;
const WORKERS = 8;

it('survives SIGKILL at random moments under a stream of plays: nothing acknowledged is lost', async () => {
  const library = await testLibrary();
  const prepared = SqliteStore.open(dataDir, library);
  await addTestBlocks(prepared);
  await prepared.close();
  const env = {
    DATA_DIR: dataDir,
    CLIENT_DIR: dataDir,
    DEMO_BALANCE_CENTS: '100000000',
    RATE_LIMIT_PER_MINUTE: '10000000',
  };

  /** What the client saw acknowledged, and what it sent without an answer. */
  const acknowledged = new Map<string, Play>();
  const unanswered = new Map<string, number>();
  let token = '';
  /** Resolved once this many plays have been acknowledged: the kill comes after a count, not a time. */
  let ackWaiter: { target: number; resolve: () => void } | null = null;

  async function send(url: string, playId: string, stakeCents: number): Promise<boolean> {
    let reply;
    try {
      reply = await call<PlayResponse>(url, 'POST', '/api/plays', { token, body: { stakeCents, playId } });
    } catch {
      return false; // The server died under this request: outcome unknown to the client.
    }
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const seen = acknowledged.get(playId);
    if (seen) expect(reply.body.play).toEqual(seen);
    acknowledged.set(playId, reply.body.play);
    unanswered.delete(playId);
    if (ackWaiter && acknowledged.size >= ackWaiter.target) {
      ackWaiter.resolve();
      ackWaiter = null;
    }
    return true;
  }

  for (let round = 0; round <= CRASHES; round++) {
    running = await spawnServer(env);
    const { url } = running;
    if (round === 0) {
      token = (await call<SessionResponse>(url, 'POST', '/api/session', { body: {} })).body.token;
    }
    // The client retries what it never saw answered, with the same playId: never a second debit.
    for (const [playId, stake] of [...unanswered]) expect(await send(url, playId, stake)).toBe(true);
    if (round === CRASHES) break;

    let alive = true;
    const workers = Array.from({ length: WORKERS }, async (_, w) => {
      let i = 0;
      while (alive) {
        const playId = newPlayId();
        const stake = STAKES[(w + i++) % STAKES.length]!;
        unanswered.set(playId, stake);
        if (!(await send(url, playId, stake))) return;
      }
    });
    // Killed after a random number of acknowledged plays, with others in flight.
    const target = acknowledged.size + MIN_ACKS_PER_ROUND + Math.floor(Math.random() * MIN_ACKS_PER_ROUND);
    await new Promise<void>((resolve) => (ackWaiter = { target, resolve }));
    running.process.kill('SIGKILL');
    alive = false;
    expect(await running.exited).toBe('SIGKILL');
    await Promise.all(workers);
  }

  // Every acknowledged play is there, exactly as acknowledged.
  const server = running!;
  expect(acknowledged.size).toBeGreaterThanOrEqual(CRASHES * MIN_ACKS_PER_ROUND);
  for (const [playId, play] of acknowledged) {
    const reply = await call<PlayResponse>(server.url, 'GET', `/api/plays/${playId}`, { token });
    expect(reply.status).toBe(200);
    expect(reply.body.play).toEqual(play);
  }
  // A graceful stop, then the money check on what is on disk.
  server.process.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  running = null;

  const store = SqliteStore.atFile(path.join(dataDir, SQLITE_FILE_NAME), library);
  try {
    const plays = store.db.prepare('SELECT COUNT(*) AS n FROM plays').get() as { n: number };
    expect(plays.n).toBe(acknowledged.size);
    const report = await auditLedger(store, library);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  } finally {
    await store.close();
  }
});

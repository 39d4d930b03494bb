import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlayResponse, SessionResponse } from '../contract/api.ts';
import { SqliteStore } from './store/sqlite/sqliteStore.ts';
import { testLibrary } from './testing/blockCache.ts';
import { spawnServer, type ChildServer } from './testing/child.ts';
import { addTestBlocks, call, newPlayId, tempDataDir } from './testing/harness.ts';
import { RawConnection } from './testing/rawHttp.ts';

/**
 * SIGTERM on a real server process: it stops accepting, closes idle connections at once,
 * answers what is in flight, and exits after the drain time whatever is left. No test
 * measures a time: a drain time far longer than the test's timeout shows that nothing
 * waited for it.
 */

const dirs: string[] = [];
const running = new Set<ChildServer>();

afterAll(async () => {
  for (const server of running) server.process.kill('SIGKILL');
  await Promise.all([...running].map((s) => s.exited));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Longer than any test's timeout: a test that ends did not wait for it. */
const NEVER = '3600';

async function start(env: Record<string, string>): Promise<ChildServer> {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const store = SqliteStore.open(dataDir, await testLibrary());
  await addTestBlocks(store);
  await store.close();
  const server = await spawnServer({ DATA_DIR: dataDir, CLIENT_DIR: dataDir, ...env });
  running.add(server);
  void server.exited.then(() => running.delete(server));
  return server;
}

/** Resolves once the child says it began to drain (the signal was handled). */
async function draining(server: ChildServer): Promise<void> {
  while (!server.output().includes('SIGTERM: finishing requests in flight')) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A play request whose headers are in and whose body is awaited (`100 Continue` received). */
async function playInFlight(server: ChildServer, body: string): Promise<RawConnection> {
  const { token } = (await call<SessionResponse>(server.url, 'POST', '/api/session', { body: {} })).body;
  const connection = new RawConnection(server.url);
  await connection.ready;
  await connection.write(
    `POST /api/plays HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  // Node answers 100 Continue when it hands the request to the app: from then on it is in flight.
  expect((await connection.response())?.status).toBe(100);
  return connection;
}

describe('SIGTERM', () => {
  it('closes idle connections at once, stops accepting, answers a play in flight (Connection: close), then exits', async () => {
    const server = await start({ SHUTDOWN_DRAIN_SECONDS: NEVER });
    const playId = newPlayId();
    const body = JSON.stringify({ stakeCents: 100, playId });
    const inFlight = await playInFlight(server, body);
    // A keep-alive connection idle after its answer, and one that never sent a byte.
    const used = new RawConnection(server.url);
    const fresh = new RawConnection(server.url);
    await Promise.all([used.ready, fresh.ready]);
    await used.write('GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n');
    const health = await used.response();
    expect(health?.status).toBe(200);
    expect(health?.headers.connection).toBe('keep-alive');

    server.process.kill('SIGTERM');
    await draining(server);
    await Promise.all([used.closed, fresh.closed]);
    expect(used.received).toBe('');
    expect(fresh.received).toBe('');
    // No new connection is accepted while the play is still in flight.
    const late = new RawConnection(server.url);
    await late.closed;
    expect(late.received).toBe('');
    expect(server.process.exitCode).toBeNull();

    await inFlight.write(body);
    const answer = await inFlight.response();
    expect(answer?.status, answer?.body).toBe(200);
    expect(answer?.headers.connection).toBe('close');
    expect((JSON.parse(answer!.body) as PlayResponse).play.playId).toBe(playId);
    await inFlight.closed;
    // The drain time is an hour: the exit did not wait for it, nor for the idle connections.
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toContain('cut');
  });

  it('cuts what is still in flight once the drain time is over, and exits', async () => {
    const server = await start({ SHUTDOWN_DRAIN_SECONDS: '1', REQUEST_TIMEOUT_MS: '600000' });
    const stuck = await playInFlight(server, JSON.stringify({ stakeCents: 100, playId: newPlayId() }));

    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await stuck.closed;
    expect(stuck.received).toBe('');
    expect(server.output()).toContain('drain time over: 1 connection(s) cut');
  });
});

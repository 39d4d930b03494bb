import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccountResponse, ApiError, PlayResponse } from '../../contract/api.ts';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { testLibrary } from '../testing/blockCache.ts';
import { call, demoSession, newPlayId, startTestServer, tempDataDir } from '../testing/harness.ts';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../testing/postgres.ts';

/**
 * `npm run ops -- sales open|close|auto`: the setting goes to the database, and every
 * instance (polling every SALES_POLL_MS, short here) refuses or sells accordingly.
 */
const POLL_MS = 100;
/** The most a change may take to be seen: many polls, so that a busy machine cannot fail it. */
const SEEN_WITHIN_MS = 5000;

function ops(env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/server/ops/cli.ts', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

interface Instance {
  url: string;
  token: string;
}

/** Per instance URL and HTTP status: the plays answered so, to check its metrics against. */
const answered = new Map<string, number>();

async function tryPlay(instance: Instance) {
  const reply = await call<PlayResponse & ApiError>(instance.url, 'POST', '/api/plays', {
    token: instance.token,
    body: { stakeCents: 100, playId: newPlayId() },
  });
  const key = `${instance.url} ${reply.status}`;
  answered.set(key, (answered.get(key) ?? 0) + 1);
  return reply;
}

/** Polls until every instance answers a play as `expected`; the milliseconds it took. */
async function untilEveryInstance(
  instances: readonly Instance[],
  expected: { open: true } | { open: false; message: string },
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const replies = await Promise.all(instances.map(tryPlay));
    const accounts = await Promise.all(
      instances.map((i) => call<AccountResponse>(i.url, 'GET', '/api/account', { token: i.token })),
    );
    const done = expected.open
      ? replies.every((r) => r.status === 200) && accounts.every((a) => a.body.sales.open)
      : replies.every(
          (r) => r.status === 403 && r.body.error.code === 'SALES_CLOSED' && r.body.error.message === expected.message,
        ) && accounts.every((a) => !a.body.sales.open && a.body.sales.message === expected.message);
    if (done) return Date.now() - started;
    if (Date.now() - started > SEEN_WITHIN_MS) {
      throw new Error(`not seen within ${SEEN_WITHIN_MS} ms: ${JSON.stringify(replies.map((r) => r.body))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('sales open and closed by the operator, on SQLite', () => {
  it('closes with a message, reopens against the configured dates, and returns to them', async () => {
    // Configured closed (the window ended in 2020): only the operator's setting opens it.
    const server = await startTestServer({ SALES_POLL_MS: String(POLL_MS), SALES_CLOSES_AT: '2020-01-01' });
    cleanup.push(() => server.close());
    const env = { DATA_DIR: server.dataDir, SALES_CLOSES_AT: '2020-01-01' };
    const instance = { url: server.url, token: (await demoSession(server.url)).token };
    const configured = (await tryPlay(instance)).body.error;
    expect(configured.code).toBe('SALES_CLOSED');

    const opened = ops(env, 'sales', 'open');
    expect(opened.stderr).toBe('');
    expect(opened.stdout).toContain('sales open by the operator');
    await untilEveryInstance([instance], { open: true });

    const message = 'Fermé pour maintenance jusqu’à 14 h.';
    const closed = ops(env, 'sales', 'close', '--message', message);
    expect(closed.status).toBe(0);
    expect(closed.stdout).toContain(`message: ${message}`);
    await untilEveryInstance([instance], { open: false, message });

    expect(ops(env, 'sales', 'auto').status).toBe(0);
    await untilEveryInstance([instance], { open: false, message: configured.message });
    expect(ops(env, 'sales').stdout).toContain('sales follow the configured dates: none to 2020-01-01T00:00:00.000Z');
  });

  it('refuses a bad command with its usage and changes nothing', async () => {
    const dataDir = tempDataDir();
    cleanup.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    for (const args of [
      ['sales', 'shut'],
      ['sales', 'close', '--message'],
      ['sales', 'open', '--message', 'x'],
    ]) {
      const result = ops({ DATA_DIR: dataDir }, ...args);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^error: /);
    }
    expect(ops({ DATA_DIR: dataDir }, 'sales').stdout).toContain('sales follow the configured dates');
  });
});

const reachable = await postgresReachable();

describe.skipIf(!reachable)('sales open and closed by the operator, on two PostgreSQL instances', () => {
  it('every instance refuses within seconds of `sales close`, and sells again after `sales open`', async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanup.push(() => database.drop());
    // Instances on one database sign one transparency log: with data directories apart, they share its key.
    const logKey = '5a'.repeat(32);
    const first = await startTestServer({
      DATABASE_URL: database.url,
      SALES_POLL_MS: String(POLL_MS),
      METRICS_PORT: '0',
      TRANSPARENCY_KEY: logKey,
    });
    cleanup.push(() => first.close());
    const dataDir = tempDataDir();
    cleanup.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      CLIENT_DIR: dataDir,
      SALES_POLL_MS: String(POLL_MS),
      TRANSPARENCY_KEY: logKey,
    });
    const second: RunningServer = await startServer(config, { library: await testLibrary(), log: () => {} });
    cleanup.push(() => second.close());
    const instances = await Promise.all(
      [first.url, second.url].map(async (url) => ({ url, token: (await demoSession(url)).token })),
    );
    await untilEveryInstance(instances, { open: true });

    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    const message = 'Tirage en cours : les ventes reprennent à 20 h.';
    expect(ops(env, 'sales', 'close', '--message', message).status).toBe(0);
    const closedAfter = await untilEveryInstance(instances, { open: false, message });
    expect(ops(env, 'sales', 'open').status).toBe(0);
    const openAfter = await untilEveryInstance(instances, { open: true });
    console.log(
      `sales change seen by both instances ${closedAfter} ms (close), ${openAfter} ms (open) after the command returned`,
    );
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SessionResponse } from '../../contract/api.ts';
import { loadConfig, type ServerConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import type { SqliteStore } from '../store/sqlite/sqliteStore.ts';
import type { BlockPool, Store } from '../store/types.ts';
import { testModeExtension } from '../testMode/index.ts';
import { testBlocks, testLibrary, type CachedBlock } from './blockCache.ts';
import { TEST_SESSION_LIMITS } from './child.ts';

/** A throw-away data directory under the system's temp dir. */
export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-test-'));
}

/**
 * Puts the cached test blocks of `pools` on sale in a store, in TEST_BLOCK_SEEDS order (no
 * copy), each in its pool or in the one `poolOf` gives it. Demo blocks only by default: a
 * server reads every block on sale as it starts, and only portal players buy real ones.
 */
export async function addTestBlocks(
  store: Pick<Store, 'addBlock'>,
  pools: readonly BlockPool[] = ['demo'],
  poolOf: (cached: CachedBlock, index: number) => BlockPool = (cached) => cached.pool,
): Promise<void> {
  const chosen = (await testBlocks()).filter((cached) => pools.includes(cached.pool));
  for (const [index, cached] of chosen.entries()) {
    const { file, block } = cached;
    await store.addBlock(
      {
        id: block.id,
        stakeCents: block.header.stakeCents,
        pool: poolOf(cached, index),
        filePath: file,
        count: block.header.count,
      },
      new Date(),
    );
  }
}

/**
 * A test server's configuration: a free port on loopback, the data dir, and no demo block
 * made behind a test's back unless it asks (DEMO_REFILL_UNITS); `env` adds or overrides.
 */
export function testConfig(dataDir: string, env: Record<string, string> = {}): ServerConfig {
  return loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    CLIENT_DIR: dataDir,
    DEMO_REFILL_UNITS: '0',
    ...TEST_SESSION_LIMITS,
    ...env,
  });
}

export interface TestServer extends RunningServer {
  dataDir: string;
  sqlite: SqliteStore;
}

/**
 * A real server on a free port with a real SQLite file, and the test blocks on sale; in
 * test mode (SPINCAKE_TEST_MODE=1 in env) with test mode plugged in, as main.ts does.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = tempDataDir();
  const config = testConfig(dataDir, env);
  // Real blocks for portal players' money, demo blocks for demo play.
  const pools: BlockPool[] = [];
  if (config.demoMode) pools.push('demo');
  if (config.portalSecret !== null) pools.push('real');
  const server = await startServer(config, {
    library: await testLibrary(),
    log: () => {},
    prepare: (store) => addTestBlocks(store, pools),
    extensions: config.testMode ? [testModeExtension()] : [],
  });
  return {
    ...server,
    dataDir,
    sqlite: server.store as SqliteStore,
    close: async () => {
      const closed = await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      return closed;
    },
  };
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON of `body`. */
  raw?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
}

export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  url: string,
  options: RequestOptions = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (body !== undefined && contentType !== null) headers['content-type'] = contentType;
  const response = await fetch(`${baseUrl}${url}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export async function demoSession(baseUrl: string): Promise<SessionResponse> {
  const reply = await call<SessionResponse>(baseUrl, 'POST', '/api/session', { body: {} });
  if (reply.status !== 200) throw new Error(`session failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export const newPlayId = (): string => randomUUID();

/** The tables a refused request must leave as they were. */
export const DUMPED_TABLES = [
  'players',
  'blocks',
  'plays',
  'entries',
  'wallet_bets',
  'wallet_outbox',
  'wallet_balances',
  'demo_reloads',
];

/**
 * Every row of every table, to prove that a refused request changed nothing. Rows are sorted
 * as text: tables stored by key (WITHOUT ROWID) have no rowid to order them by.
 */
export function databaseDump(store: SqliteStore, tables: readonly string[] = DUMPED_TABLES): string {
  return JSON.stringify(
    tables.map((t) =>
      store.db
        .prepare(`SELECT * FROM ${t}`)
        .all()
        .map((row) => JSON.stringify(row))
        .sort(),
    ),
  );
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { SessionResponse } from '../../contract/api.ts';
import { loadConfig, type ServerConfig } from '../config.ts';
import { assembleServer, startServer, type AssembledServer, type RunningServer, type StartOptions } from '../server.ts';
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

/** How a test server is put together, as main.ts does: test mode plugged in when SPINCAKE_TEST_MODE=1 is set. */
async function testServerOptions(config: ServerConfig): Promise<StartOptions> {
  // Real blocks for portal players' money, demo blocks for demo play.
  const pools: BlockPool[] = [];
  if (config.demoMode) pools.push('demo');
  if (config.portalSecret !== null) pools.push('real');
  return {
    library: await testLibrary(),
    log: () => {},
    prepare: (store) => addTestBlocks(store, pools),
    extensions: config.testMode ? [testModeExtension()] : [],
  };
}

/**
 * A real server on a free port with a real SQLite file, and the test blocks on sale: for
 * the tests whose subject is the sockets (connection caps, limits, shutdown, timeouts).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = tempDataDir();
  const config = testConfig(dataDir, env);
  const server = await startServer(config, await testServerOptions(config));
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

export interface TestApp extends AssembledServer {
  dataDir: string;
  sqlite: SqliteStore;
}

/**
 * The app as startTestServer builds it (a fresh SQLite file, the test blocks on sale, test
 * mode with SPINCAKE_TEST_MODE=1), not listening: requests go through `app.inject`
 * (`call(testApp.app, …)`). For the API's behaviour, where the socket is not the subject.
 */
export async function build(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = tempDataDir();
  const config = testConfig(dataDir, env);
  const server = await assembleServer(config, await testServerOptions(config));
  await server.app.ready();
  return {
    ...server,
    dataDir,
    sqlite: server.store as SqliteStore,
    close: async () => {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
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

/** Where a test sends its requests: a listening server's base URL, or an app injected into (no socket). */
export type Target = string | Pick<FastifyInstance, 'inject'>;

export async function call<T = unknown>(
  target: Target,
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
  const { status, text, replyHeaders } = await send(target, method, url, headers, body);
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status, body: parsed as T, headers: replyHeaders };
}

async function send(
  target: Target,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; text: string; replyHeaders: Headers }> {
  if (typeof target === 'string') {
    const response = await fetch(`${target}${url}`, { method, headers, body });
    return { status: response.status, text: await response.text(), replyHeaders: response.headers };
  }
  const response = await target.inject({ method: method as InjectOptions['method'], url, headers, payload: body });
  const replyHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of Array.isArray(value) ? value : [value])
      if (one !== undefined) replyHeaders.append(name, String(one));
  }
  return { status: response.statusCode, text: response.body, replyHeaders };
}

export async function demoSession(target: Target): Promise<SessionResponse> {
  const reply = await call<SessionResponse>(target, 'POST', '/api/session', { body: {} });
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
  'purged_plays',
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

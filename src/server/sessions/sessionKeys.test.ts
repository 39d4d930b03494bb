import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionResponse } from '../../contract/api.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { call, startTestServer, tempDataDir, type TestServer } from '../testing/harness.ts';
import { GENERATED_KEYS_FILE, loadSessionKeyring, parseSessionKeys } from './sessionKeys.ts';

const key = () => randomBytes(32).toString('base64');

describe('session keys', () => {
  const servers: TestServer[] = [];
  let dir: string | null = null;
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('reads SESSION_KEYS as id:base64key,…: the first signs', () => {
    const [a, b] = [key(), key()];
    const ring = loadSessionKeyring(loadConfig({ SESSION_KEYS: `new:${a}, old:${b}` }));
    expect(ring.signing.id).toBe('new');
    expect(ring.signing.key.equals(Buffer.from(a, 'base64'))).toBe(true);
    expect([...ring.byId.keys()]).toEqual(['new', 'old']);
    expect(() => parseSessionKeys(`k:${randomBytes(16).toString('base64')}`, 'SESSION_KEYS')).toThrow(/at least 32/);
    expect(() => parseSessionKeys(`k:${a},k:${b}`, 'SESSION_KEYS')).toThrow(/listed twice/);
    expect(() => parseSessionKeys(a, 'SESSION_KEYS')).toThrow(ConfigError);
    expect(() => parseSessionKeys('', 'SESSION_KEYS')).toThrow(/no key/);
    expect(() => loadConfig({ SESSION_KEYS: `k:${a}`, SESSION_KEYS_FILE: '/etc/keys' })).toThrow(/both set/);
  });

  it('reads SESSION_KEYS_FILE, one key a line; the production profile wants one or the other', () => {
    dir = tempDataDir();
    const file = path.join(dir, 'keys');
    fs.writeFileSync(file, `# rotated 2026-12-01\nb:${key()}\na:${key()}\n`, { mode: 0o600 });
    expect(loadSessionKeyring(loadConfig({ SESSION_KEYS_FILE: file })).signing.id).toBe('b');
    expect(() => loadSessionKeyring(loadConfig({ SPINCAKE_PROFILE: 'production', DATA_DIR: dir! }))).toThrow(
      /production profile needs SESSION_KEYS/,
    );
  });

  it('demo: makes its own key file in DATA_DIR (0600), kept across restarts', async () => {
    const first = await startTestServer();
    servers.push(first);
    const file = path.join(first.dataDir, GENERATED_KEYS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = loadSessionKeyring(first.context.config);
    expect(again.signing.key.equals(first.context.sessionKeys.signing.key)).toBe(true);
  });

  it('rotates without logging anyone out: a token of the old key works while it is listed', async () => {
    const [oldKey, newKey] = [key(), key()];
    const before = await startTestServer({ SESSION_KEYS: `old:${oldKey}` });
    servers.push(before);
    const opened = await call<SessionResponse>(before.url, 'POST', '/api/session', { body: {} });
    expect(opened.body.token.startsWith('old.')).toBe(true);
    // The same data with the new key first: the old token still opens the account.
    const config = { ...before.context.config, sessionKeys: { inline: `new:${newKey},old:${oldKey}`, file: null } };
    const { startServer } = await import('../server.ts');
    const after = await startServer(config, { library: before.library, log: () => {} });
    try {
      expect((await call(after.url, 'GET', '/api/account', { token: opened.body.token })).status).toBe(200);
      const fresh = await call<SessionResponse>(after.url, 'POST', '/api/session', { body: {} });
      expect(fresh.body.token.startsWith('new.')).toBe(true);
      // The server that knows only the old key refuses what the new one signed.
      expect((await call(before.url, 'GET', '/api/account', { token: fresh.body.token })).status).toBe(401);
    } finally {
      await after.close();
    }
    // Once the old key is dropped, its tokens end.
    const dropped = { ...config, sessionKeys: { inline: `new:${newKey}`, file: null } };
    const later = await startServer(dropped, { library: before.library, log: () => {} });
    try {
      expect((await call(later.url, 'GET', '/api/account', { token: opened.body.token })).status).toBe(401);
    } finally {
      await later.close();
    }
  });
});

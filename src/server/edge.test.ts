import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../contract/api.ts';
import { ConfigError, loadConfig } from './config.ts';
import { build, call, type TestApp } from './testing/harness.ts';

/**
 * The edge as an operator runs it: behind proxies (TRUST_PROXY), the limits see each
 * client's address; opening sessions is limited per address and in all.
 */
describe('the edge', () => {
  let server: TestApp | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  const open = (from?: string) =>
    call<ApiError>(server!.app, 'POST', '/api/session', {
      body: {},
      headers: from ? { 'x-forwarded-for': from } : {},
    });

  it('limits new sessions per address (SESSION_CREATE_PER_MINUTE)', async () => {
    server = await build({ SESSION_CREATE_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i++) expect((await open()).status).toBe(200);
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.message).toMatch(/too many new sessions from this address/);
  });

  it('behind a trusted proxy, each client has its own budget; an untrusted X-Forwarded-For is ignored', async () => {
    server = await build({ SESSION_CREATE_PER_MINUTE: '2', TRUST_PROXY: '127.0.0.1' });
    for (const client of ['203.0.113.5', '203.0.113.6']) {
      expect((await open(client)).status).toBe(200);
      expect((await open(client)).status).toBe(200);
    }
    expect((await open('203.0.113.5')).status).toBe(429);
    await server.close();
    // Without TRUST_PROXY, the header is anybody's to write: every request counts for the socket's address.
    server = await build({ SESSION_CREATE_PER_MINUTE: '2' });
    expect((await open('203.0.113.5')).status).toBe(200);
    expect((await open('203.0.113.6')).status).toBe(200);
    expect((await open('203.0.113.7')).status).toBe(429);
  });

  it('limits new sessions in all (SESSION_CREATE_TOTAL_PER_MINUTE)', async () => {
    server = await build({ TRUST_PROXY: '127.0.0.0/8', SESSION_CREATE_TOTAL_PER_MINUTE: '4' });
    for (let i = 0; i < 4; i++) expect((await open(`198.51.100.${i}`)).status).toBe(200);
    const refused = await open('198.51.100.99');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/too many new sessions on this server/);
  });

  it('reads TRUST_PROXY as addresses or CIDRs', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, ::1, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
    expect(loadConfig({}).trustProxy).toEqual([]);
    for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
    }
  });
});

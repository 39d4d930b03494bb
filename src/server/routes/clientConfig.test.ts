import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError, ClientConfigResponse } from '../../contract/api.ts';
import { build, call, type TestApp } from '../testing/harness.ts';

let server: TestApp | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GET /api/client-config', () => {
  it('tells the portal origins and demo mode, without a session', async () => {
    server = await build({
      PORTAL_ORIGINS: 'https://portal.example, http://localhost:8090',
      DEMO_MODE: 'off',
    });
    const reply = await call<ClientConfigResponse>(server.app, 'GET', '/api/client-config');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ portalOrigins: ['https://portal.example', 'http://localhost:8090'], demoMode: false });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    // The same origins, and only those, may frame the game.
    expect(reply.headers.get('content-security-policy')).toContain(
      "frame-ancestors 'self' https://portal.example http://localhost:8090",
    );
  });

  it('is an empty list with no portal configured', async () => {
    server = await build();
    const reply = await call<ClientConfigResponse>(server.app, 'GET', '/api/client-config');
    expect(reply.body).toEqual({ portalOrigins: [], demoMode: true });
  });

  it('refuses query parameters', async () => {
    server = await build();
    const reply = await call<ApiError>(server.app, 'GET', '/api/client-config?x=1');
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_INPUT');
  });
});

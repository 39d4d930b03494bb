import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, PlayResponse } from '../contract/api.ts';
import { STAKES_CENTS } from '../rules/index.ts';
import { call, demoSession, newPlayId, startTestServer, type TestServer } from './testing/harness.ts';
import { sample, scrape } from './testing/metricsText.ts';
import { testBook } from './testing/testBook.ts';

function play(s: TestServer, token: string, stakeCents: unknown, playId: string = newPlayId()) {
  return call<PlayResponse & ApiError>(s.url, 'POST', '/api/plays', { token, body: { stakeCents, playId } });
}

describe('metrics on a port of their own', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0' });
  });
  afterAll(() => server?.close());

  it('counts plays per stake, refusals per code, requests per route, batches and units left', async () => {
    const before = await scrape(server);
    for (const stake of STAKES_CENTS)
      for (const pool of ['demo', 'real']) {
        expect(sample(before, 'spincake_plays_sold_total', `stake_cents="${stake}",pool="${pool}"`)).toBe(0);
      }
    const openOneEuro = (await server.store.listBlocks()).find((b) => b.stakeCents === 100 && b.status === 'open')!;
    const leftBefore = openOneEuro.count - openOneEuro.nextPosition;

    const { token } = await demoSession(server.url);
    const first = newPlayId();
    for (const reply of await Promise.all([
      play(server, token, 100, first),
      play(server, token, 100),
      play(server, token, 100),
    ])) {
      expect(reply.status).toBe(200);
    }
    expect((await play(server, token, 200)).status).toBe(200);
    // A replay sells nothing; a bad stake and an unknown route are refusals.
    expect((await play(server, token, 100, first)).status).toBe(200);
    expect((await play(server, token, 150)).body.error.code).toBe('INVALID_INPUT');
    expect((await call(server.url, 'GET', `/api/plays/${first}`, { token })).status).toBe(200);
    expect((await call(server.url, 'GET', '/api/nothing-here')).status).toBe(404);
    expect((await call(server.url, 'GET', '/api/account')).status).toBe(401);

    const after = await scrape(server);
    // Demo sessions: sold from the demo pool, never counted as real sales.
    expect(sample(after, 'spincake_plays_sold_total', 'stake_cents="100",pool="demo"')).toBe(3);
    expect(sample(after, 'spincake_plays_sold_total', 'stake_cents="200",pool="demo"')).toBe(1);
    expect(sample(after, 'spincake_plays_sold_total', 'stake_cents="500",pool="demo"')).toBe(0);
    for (const stake of STAKES_CENTS) {
      expect(sample(after, 'spincake_plays_sold_total', `stake_cents="${stake}",pool="real"`)).toBe(0);
    }
    expect(sample(after, 'spincake_refusals_total', 'code="INVALID_INPUT"')).toBe(1);
    expect(sample(after, 'spincake_refusals_total', 'code="NOT_FOUND"')).toBe(1);
    expect(sample(after, 'spincake_refusals_total', 'code="NO_SESSION"')).toBe(1);
    // Per route pattern, never the raw URL (no playId in any label).
    const plays = 'method="POST",route="/api/plays",status="200"';
    expect(sample(after, 'spincake_http_request_duration_seconds_count', plays)).toBe(5);
    expect(
      sample(
        after,
        'spincake_http_request_duration_seconds_count',
        'method="GET",route="/api/plays/:playId",status="200"',
      ),
    ).toBe(1);
    expect(
      sample(after, 'spincake_http_request_duration_seconds_count', 'method="GET",route="unmatched",status="404"'),
    ).toBe(1);
    expect(after).not.toContain(first);
    // Five plays in at least one batch, each committed, then flushed to disk.
    const batches = sample(after, 'spincake_play_batch_size_count')!;
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(batches).toBeLessThanOrEqual(5);
    expect(sample(after, 'spincake_play_batch_size_sum')).toBe(5);
    expect(sample(after, 'spincake_play_batch_commit_seconds_count')).toBe(batches);
    expect(sample(after, 'spincake_play_batch_flush_seconds_count')).toBe(batches);
    const openOneEuroLabels = `stake_cents="100",pool="demo",block="${openOneEuro.id.slice(0, 16)}"`;
    expect(sample(after, 'spincake_block_units_left', openOneEuroLabels)).toBe(leftBefore - 3);
    expect(sample(after, 'spincake_sales_open')).toBe(1);
    expect(sample(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(after).toContain('nodejs_eventloop_lag_seconds');
  });

  it('is never served on the players’ port', async () => {
    for (const path of ['/metrics', '/api/metrics']) {
      const reply = await call<ApiError>(server.url, 'GET', path);
      expect(reply.status).toBe(404);
      expect(JSON.stringify(reply.body)).not.toContain('spincake_plays_sold_total');
    }
    expect(new URL(server.metricsUrl!).port).not.toBe(new URL(server.url).port);
    expect((await fetch(server.metricsUrl!.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('is off without METRICS_PORT', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.metricsUrl).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe('request ids', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('echoes a sane incoming x-request-id, and makes one otherwise', async () => {
    const given = await call(server.url, 'GET', '/api/health', { headers: { 'x-request-id': 'lb-7f3a.42:1' } });
    expect(given.headers.get('x-request-id')).toBe('lb-7f3a.42:1');
    for (const bad of ['has space', 'x'.repeat(200), '<script>']) {
      const reply = await call(server.url, 'GET', '/api/health', { headers: { 'x-request-id': bad } });
      expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const fresh = await call(server.url, 'GET', '/api/nothing');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('liveness and readiness', () => {
  it('are never rate limited: probes come often, from one address', async () => {
    const server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await call(server.url, 'GET', '/api/health/live')).status).toBe(200);
        expect((await call(server.url, 'GET', '/api/health/ready')).status).toBe(200);
      }
      const limited = await Promise.all([1, 2, 3].map(() => call<ApiError>(server.url, 'GET', '/api/health')));
      expect(limited.map((r) => r.status)).toContain(429);
    } finally {
      await server.close();
    }
  });

  it('live while the process answers; ready only with the database and a unit on sale', async () => {
    const server = await startTestServer();
    try {
      expect(await call(server.url, 'GET', '/api/health')).toMatchObject({ status: 200, body: { ok: true } });
      expect(await call(server.url, 'GET', '/api/health/live')).toMatchObject({ status: 200, body: { ok: true } });
      expect(await call(server.url, 'GET', '/api/health/ready')).toMatchObject({ status: 200, body: { ok: true } });
      for (const stake of STAKES_CENTS) await testBook(server.store).closeBlocksOfStake(stake);
      const soldOut = await call<ApiError>(server.url, 'GET', '/api/health/ready');
      expect(soldOut.status).toBe(503);
      expect(soldOut.body.error).toEqual({ code: 'SOLD_OUT', message: 'not ready: no block has a unit on sale' });
      expect((await call(server.url, 'GET', '/api/health/live')).status).toBe(200);
      // The database gone: not ready, still alive.
      server.sqlite.db.close();
      const noDatabase = await call<ApiError>(server.url, 'GET', '/api/health/ready');
      expect(noDatabase.status).toBe(503);
      expect(noDatabase.body.error.code).toBe('INTERNAL');
      expect(noDatabase.body.error.message).toMatch(/^not ready: the database does not answer/);
      expect((await call(server.url, 'GET', '/api/health/live')).status).toBe(200);
    } finally {
      await server.close().catch(() => {});
    }
  });
});

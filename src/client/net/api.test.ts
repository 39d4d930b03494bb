import { describe, expect, it } from 'vitest';
import { createGameApi } from './api.ts';

/** A fetch that answers from a script of outcomes and records what it was sent. */
function scriptedFetch(outcomes: Array<'network' | { status: number; body: unknown }>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = outcomes.shift();
    if (!next || next === 'network') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(next.body), { status: next.status });
  }) as unknown as typeof fetch;
  return { fetchFn, calls };
}

const noSleep = async () => {};

describe('play', () => {
  it('retries a network failure with the same playId and returns the play', async () => {
    const { fetchFn, calls } = scriptedFetch(['network', 'network', { status: 200, body: { balanceCents: 900 } }]);
    const api = createGameApi({ fetch: fetchFn, sleep: noSleep });
    const result = await api.play('tok', 100, 'id-1');
    expect(result).toEqual({ ok: true, data: { balanceCents: 900 } });
    expect(calls).toHaveLength(3);
    const bodies = calls.map((c) => JSON.parse(String(c.init.body)));
    expect(bodies).toEqual([1, 2, 3].map(() => ({ stakeCents: 100, playId: 'id-1' })));
    expect(calls[0]!.init.headers).toMatchObject({ authorization: 'Bearer tok' });
  });

  it('does not retry a refusal and keeps the server code and message', async () => {
    const refusal = { error: { code: 'INSUFFICIENT_BALANCE', message: 'Solde insuffisant' } };
    const { fetchFn, calls } = scriptedFetch([{ status: 409, body: refusal }]);
    const result = await createGameApi({ fetch: fetchFn, sleep: noSleep }).play('tok', 500, 'id-2');
    expect(result).toEqual({
      ok: false,
      kind: 'server',
      status: 409,
      code: 'INSUFFICIENT_BALANCE',
      message: 'Solde insuffisant',
    });
    expect(calls).toHaveLength(1);
  });

  it('gives up after the configured retries with a network failure', async () => {
    const { fetchFn, calls } = scriptedFetch(['network', 'network', 'network']);
    const api = createGameApi({ fetch: fetchFn, sleep: noSleep, playRetryDelaysMs: [1, 1] });
    const result = await api.play('tok', 100, 'id-3');
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.kind).toBe('network');
    expect(calls).toHaveLength(3);
  });

  it('treats an answer without the error shape as a network failure', async () => {
    const { fetchFn } = scriptedFetch([{ status: 502, body: '<html>' }]);
    const api = createGameApi({ fetch: fetchFn, sleep: noSleep, playRetryDelaysMs: [] });
    const result = await api.play('tok', 100, 'id-4');
    expect(result).toEqual({ ok: false, kind: 'network', message: 'HTTP 502' });
  });
});

describe('timeouts', () => {
  it('aborts a request that takes longer than the timeout', async () => {
    const hanging = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      })) as unknown as typeof fetch;
    const result = await createGameApi({ fetch: hanging, timeoutMs: 10 }).account('tok');
    expect(result).toEqual({ ok: false, kind: 'network', message: 'timeout' });
  });
});

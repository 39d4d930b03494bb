import { describe, expect, it } from 'vitest';
import { WalBarrier } from './walBarrier.ts';

/** A flush whose end the test decides. */
function controlledFlush() {
  const calls: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const flush = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { calls, flush };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('WalBarrier', () => {
  it('starts a flush at once when none runs', async () => {
    const { calls, flush } = controlledFlush();
    const barrier = new WalBarrier(flush);
    let done = false;
    void barrier.durable().then(() => (done = true));
    expect(calls).toHaveLength(1);
    await tick();
    expect(done).toBe(false);
    calls[0]!.resolve();
    await tick();
    expect(done).toBe(true);
  });

  it('does not let a caller ride a flush that started before it: it waits for the next one', async () => {
    const { calls, flush } = controlledFlush();
    const barrier = new WalBarrier(flush);
    void barrier.durable();
    let late = false;
    void barrier.durable().then(() => (late = true));
    calls[0]!.resolve();
    await tick();
    expect(late).toBe(false);
    expect(calls).toHaveLength(2);
    calls[1]!.resolve();
    await tick();
    expect(late).toBe(true);
  });

  it('covers every caller that arrived during one flush with a single next flush', async () => {
    const { calls, flush } = controlledFlush();
    const barrier = new WalBarrier(flush);
    void barrier.durable();
    const waiting = [barrier.durable(), barrier.durable(), barrier.durable()];
    calls[0]!.resolve();
    await tick();
    calls[1]!.resolve();
    await Promise.all(waiting);
    expect(calls).toHaveLength(2);
    expect(barrier.flushes).toBe(2);
  });

  it('rejects the callers of a failed flush and runs a fresh one for the next', async () => {
    const { calls, flush } = controlledFlush();
    const barrier = new WalBarrier(flush);
    const first = barrier.durable();
    calls[0]!.reject(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    const second = barrier.durable();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve();
    await expect(second).resolves.toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff.ts';

describe('retryDelayMs', () => {
  it('doubles per attempt, between half and all of the window', () => {
    expect([0, 1, 2, 3].map((a) => retryDelayMs(a, 500, 60_000, 0))).toEqual([250, 500, 1000, 2000]);
    expect([0, 1, 2, 3].map((a) => retryDelayMs(a, 500, 60_000, 0.999999))).toEqual([500, 1000, 2000, 4000]);
  });

  it('stops growing at the cap, even after very many attempts', () => {
    expect(retryDelayMs(7, 500, 60_000, 0)).toBe(30_000);
    expect(retryDelayMs(8, 500, 60_000, 0.5)).toBe(45_000);
    expect(retryDelayMs(10_000, 500, 60_000, 0.999999)).toBe(60_000);
  });
});

import { describe, expect, it } from 'vitest';
import { mulberry32 } from './seededRandom.ts';

describe('mulberry32', () => {
  it('gives the same sequence for the same seed, in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(values).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
  });

  it('keeps the sequence the test fixtures and visual baselines were made with', () => {
    // Pinned from the generator as it was when the baselines were taken (uint32 outputs, seed 1).
    const next = mulberry32(1);
    expect([next(), next(), next()].map((x) => Math.round(x * 4_294_967_296))).toEqual([
      2_693_262_067, 11_749_833, 2_265_367_787,
    ]);
  });

  it('treats seeds modulo 2^32', () => {
    expect(mulberry32(2 ** 32 + 5)()).toBe(mulberry32(5)());
  });
});

import { describe, expect, it } from 'vitest';
import { KeystreamRandom, parseSeedHex } from './random.ts';

describe('KeystreamRandom', () => {
  it('is deterministic per seed and purpose, and differs between them', () => {
    const draw = (seed: string, purpose: string) => {
      const r = new KeystreamRandom(parseSeedHex(seed), purpose);
      return Array.from({ length: 50 }, () => r.belowLarge(1_000_000));
    };
    expect(draw('01', 'order')).toEqual(draw('01', 'order'));
    expect(draw('01', 'order')).not.toEqual(draw('02', 'order'));
    expect(draw('01', 'order')).not.toEqual(draw('01', 'faces'));
  });

  it('draws every value in [0, n) about equally often, small and large n', () => {
    const r = new KeystreamRandom(parseSeedHex('5eed'), 'test');
    for (const n of [2, 6, 11, 66, 255, 256]) {
      const counts = new Array<number>(n).fill(0);
      const draws = n * 2_000;
      for (let i = 0; i < draws; i++) counts[r.below(n)]!++;
      // 2 000 expected per value, σ ≈ 45: 6σ bounds.
      for (const c of counts) expect(Math.abs(c - 2_000)).toBeLessThan(270);
    }
    // A large n whose rejection zone matters: n = 3·2^30 rejects a quarter of the words.
    const n = 3 * 2 ** 30;
    const thirds = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) {
      const x = r.below(n);
      expect(x).toBeLessThan(n);
      thirds[Math.floor(x / 2 ** 30)]!++;
    }
    for (const t of thirds) expect(Math.abs(t - 10_000)).toBeLessThan(500);
  });

  it('parses seeds of 1–32 bytes of hex only', () => {
    expect([...parseSeedHex('00fF')]).toEqual([0, 255]);
    for (const bad of ['', 'a', 'abc', 'zz', '0x00', 'ab ', 'a'.repeat(66)]) {
      expect(() => parseSeedHex(bad)).toThrow(/bad seed/);
    }
  });
});

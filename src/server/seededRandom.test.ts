import { describe, expect, it } from 'vitest';
import { seededRandom } from './seededRandom.ts';

describe('seededRandom', () => {
  it('keeps the sequences the fixture units were made with', () => {
    // Pinned from the generator as it was when the fixtures were made (uint32 outputs).
    const pinned: Record<string, number[]> = {
      losing: [2_746_856_213, 224_972_112, 372_152_174],
      wrong: [2_801_707_961, 1_530_658_659, 1_057_421_530],
      x: [2_628_801_867, 520_923_820, 2_937_578_574],
    };
    for (const [seed, values] of Object.entries(pinned)) {
      const next = seededRandom(seed);
      expect([next(), next(), next()].map((v) => Math.round(v * 4_294_967_296))).toEqual(values);
    }
  });
});

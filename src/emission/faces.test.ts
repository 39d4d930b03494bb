import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LOT_PAIRS, STAKES_CENTS, SYMBOLS, pairOf, unitProblems, evaluate, type Unit } from '../rules/index.ts';
import { PAIR_CODES, SYMBOL_CODES } from './codes.ts';
import { unitForPair } from './index.ts';

/** The lot pair that a unit's cursors show (undefined when no block may hold it). */
const unitPair = (unit: Unit) => {
  const { bells, points } = evaluate(unit);
  return pairOf(bells, points);
};

describe('codebooks', () => {
  it('name exactly the symbols and pairs of src/rules, bell first', () => {
    expect([...SYMBOL_CODES].sort()).toEqual([...SYMBOLS].sort());
    expect(SYMBOL_CODES[0]).toBe('bell');
    expect([...PAIR_CODES].sort()).toEqual(LOT_PAIRS.map((p) => p.key).sort());
  });
});

describe('unitForPair', () => {
  it('gives wheels whose cursors show exactly the pair, for every pair and stake', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOT_PAIRS),
        fc.constantFrom(...STAKES_CENTS),
        fc.infiniteStream(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })),
        (pair, stake, stream) => {
          const unit = unitForPair(pair.key, stake, () => stream.next().value);
          expect(unitProblems(unit)).toEqual([]);
          expect(unitPair(unit)?.key).toBe(pair.key);
          expect(evaluate(unit).winCents).toBe((pair.lotPerEuroCents * stake) / 100);
          for (const wheel of unit.wheels) {
            expect(new Set(wheel.segments.map((s) => s.symbol)).size).toBeGreaterThan(1);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('shows bells and 500 points off the cursor too', () => {
    let offBells = 0;
    let offTop = 0;
    for (let i = 0; i < 200; i++) {
      const unit = unitForPair('lose', 100, Math.random);
      unit.wheels.forEach((w) =>
        w.segments.forEach((s, k) => {
          if (k === w.stop) return;
          if (s.symbol === 'bell') offBells++;
          if (s.points === 500) offTop++;
        }),
      );
    }
    expect(offBells).toBeGreaterThan(0);
    expect(offTop).toBeGreaterThan(0);
  });

  it('refuses an unknown pair and a random() outside [0, 1)', () => {
    expect(() => unitForPair('x3' as 'x1', 100, Math.random)).toThrow(/unknown pair/);
    expect(() => unitForPair('x1', 100, () => 1)).toThrow(/\[0, 1\)/);
  });
});

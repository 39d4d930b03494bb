import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { POINT_VALUES, SYMBOLS, type Unit } from '../../rules/index.ts';
import { UNIT_CODE_LENGTH, UnitCodeError, decodeUnit, encodeUnit } from './unitCode.ts';

const segment = fc.record({ symbol: fc.constantFrom(...SYMBOLS), points: fc.constantFrom(...POINT_VALUES) });
const wheel = fc.record({
  segments: fc.array(segment, { minLength: 6, maxLength: 6 }),
  stop: fc.integer({ min: 0, max: 5 }),
});
const unit = fc.record({
  stakeCents: fc.constantFrom(100 as const, 200 as const, 300 as const, 500 as const),
  wheels: fc.array(wheel, { minLength: 4, maxLength: 4 }),
});

describe('unit codes', () => {
  it('round-trip every well-formed unit in 52 characters', () => {
    fc.assert(
      fc.property(unit, (u: Unit) => {
        const code = encodeUnit(u);
        expect(code).toHaveLength(UNIT_CODE_LENGTH);
        expect(decodeUnit(code, u.stakeCents)).toEqual(u);
      }),
    );
  });

  it('refuses malformed codes', () => {
    expect(() => decodeUnit('0', 100)).toThrow(UnitCodeError);
    expect(() => decodeUnit('9'.repeat(UNIT_CODE_LENGTH), 100)).toThrow(UnitCodeError);
    expect(() => decodeUnit('0b'.repeat(26), 100)).toThrow(UnitCodeError); // 'b' = 11 × 50 points
  });
});

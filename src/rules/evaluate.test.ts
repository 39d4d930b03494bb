import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { STAKES_CENTS, type StakeCents } from './stakes.ts';
import { jeu1WinCents, jeu2WinCents, pairOf } from './tables.ts';
import { POINT_VALUES, SYMBOLS, type Segment, type Unit, type Wheel } from './unit.ts';
import { evaluate, unitProblems } from './evaluate.ts';

/** A wheel whose cursor shows (symbol, points); the other segments are filler. */
function wheelShowing(symbol: Segment['symbol'], points: number, stop = 0): Wheel {
  const segments: Segment[] = Array.from({ length: 6 }, (_, i) => ({ symbol: SYMBOLS[(i % 5) + 1]!, points: 50 * i }));
  segments[stop] = { symbol, points };
  return { segments, stop };
}

function unitShowing(stake: StakeCents, shown: [Segment['symbol'], number][]): Unit {
  return { stakeCents: stake, wheels: shown.map(([s, p], i) => wheelShowing(s, p, i)) };
}

describe('evaluate', () => {
  it('reads only the segments under the cursors', () => {
    const unit = unitShowing(100, [
      ['bell', 200],
      ['bell', 300],
      ['donut', 100],
      ['cherry', 50],
    ]);
    unit.wheels[2]!.segments[5] = { symbol: 'bell', points: 500 }; // off the cursor: counts for nothing
    expect(evaluate(unit)).toEqual({ bells: 2, points: 650, jeu1WinCents: 500, jeu2WinCents: 200, winCents: 700 });
  });

  it('pays the 20 000× jackpot: 4 bells and 2 000 points', () => {
    for (const stake of STAKES_CENTS) {
      const unit = unitShowing(stake, [
        ['bell', 500],
        ['bell', 500],
        ['bell', 500],
        ['bell', 500],
      ]);
      expect(evaluate(unit).winCents).toBe(20_000 * stake);
    }
  });

  it('sums JEU 1 and JEU 2 into one lot (4.8), in integer cents', () => {
    const unit = unitShowing(500, [
      ['bell', 100],
      ['cupcake', 100],
      ['macaron', 100],
      ['donut', 150],
    ]);
    expect(evaluate(unit)).toEqual({ bells: 1, points: 450, jeu1WinCents: 250, jeu2WinCents: 250, winCents: 500 });
  });
});

describe('unitProblems', () => {
  const good = unitShowing(100, [
    ['bell', 200],
    ['bell', 300],
    ['donut', 100],
    ['cherry', 50],
  ]);
  const clone = () => structuredClone(good) as unknown as Record<string, unknown> & Unit;

  it('accepts a well-formed unit with a lot of the table', () => {
    expect(unitProblems(good)).toEqual([]);
  });

  it.each([
    ['null', () => null],
    ['a string', () => 'unit'],
    ['a bad stake', () => ({ ...clone(), stakeCents: 400 })],
    ['a float stake', () => ({ ...clone(), stakeCents: 1.5 })],
    ['three wheels', () => ({ ...clone(), wheels: clone().wheels.slice(0, 3) })],
    ['five wheels', () => ({ ...clone(), wheels: [...clone().wheels, clone().wheels[0]] })],
    ['wheels not an array', () => ({ ...clone(), wheels: {} })],
    [
      'a wheel of five segments',
      () => {
        const u = clone();
        u.wheels[0]!.segments.pop();
        return u;
      },
    ],
    [
      'a wheel of seven segments',
      () => {
        const u = clone();
        u.wheels[1]!.segments.push({ symbol: 'bell', points: 0 });
        return u;
      },
    ],
    [
      'a null segment',
      () => {
        const u = clone();
        (u.wheels[0]!.segments as unknown[])[2] = null;
        return u;
      },
    ],
    [
      'an unknown symbol',
      () => {
        const u = clone();
        (u.wheels[0]!.segments[1] as { symbol: string }).symbol = 'tart';
        return u;
      },
    ],
    [
      'points not a multiple of 50',
      () => {
        const u = clone();
        u.wheels[0]!.segments[1]!.points = 75;
        return u;
      },
    ],
    [
      'points above 500',
      () => {
        const u = clone();
        u.wheels[0]!.segments[1]!.points = 550;
        return u;
      },
    ],
    [
      'negative points',
      () => {
        const u = clone();
        u.wheels[0]!.segments[1]!.points = -50;
        return u;
      },
    ],
    [
      'points as a string',
      () => {
        const u = clone();
        (u.wheels[0]!.segments[1] as { points: unknown }).points = '50';
        return u;
      },
    ],
    [
      'a stop of 6',
      () => {
        const u = clone();
        u.wheels[3]!.stop = 6;
        return u;
      },
    ],
    [
      'a negative stop',
      () => {
        const u = clone();
        u.wheels[3]!.stop = -1;
        return u;
      },
    ],
    [
      'a fractional stop',
      () => {
        const u = clone();
        u.wheels[3]!.stop = 1.5;
        return u;
      },
    ],
    [
      'a missing stop',
      () => {
        const u = clone();
        delete (u.wheels[3] as Partial<Wheel>).stop;
        return u;
      },
    ],
    [
      'one bell and 300 points (a lot the table lacks)',
      () =>
        unitShowing(100, [
          ['bell', 100],
          ['donut', 100],
          ['donut', 100],
          ['donut', 0],
        ]),
    ],
    [
      'four bells and 1 950 points',
      () =>
        unitShowing(100, [
          ['bell', 500],
          ['bell', 500],
          ['bell', 500],
          ['bell', 450],
        ]),
    ],
    [
      'three bells and 500 points',
      () =>
        unitShowing(100, [
          ['bell', 100],
          ['bell', 100],
          ['bell', 100],
          ['donut', 200],
        ]),
    ],
  ])('rejects %s', (_name, make) => {
    expect(unitProblems(make()).length).toBeGreaterThan(0);
  });
});

describe('properties over generated units', () => {
  const segment = fc.record({ symbol: fc.constantFrom(...SYMBOLS), points: fc.constantFrom(...POINT_VALUES) });
  const wheel = fc.record({
    segments: fc.array(segment, { minLength: 6, maxLength: 6 }),
    stop: fc.integer({ min: 0, max: 5 }),
  });
  const unit = fc.record({
    stakeCents: fc.constantFrom(...STAKES_CENTS),
    wheels: fc.array(wheel, { minLength: 4, maxLength: 4 }),
  });

  it('win = JEU 1 + JEU 2, both integer cents, scaling with the stake', () => {
    fc.assert(
      fc.property(unit, (u) => {
        const e = evaluate(u);
        expect(Number.isInteger(e.winCents)).toBe(true);
        expect(e.winCents).toBe(e.jeu1WinCents + e.jeu2WinCents);
        expect(e.jeu1WinCents).toBe(jeu1WinCents(e.bells, 100) * (u.stakeCents / 100));
        expect(e.jeu2WinCents).toBe(jeu2WinCents(e.points, 100) * (u.stakeCents / 100));
        expect(e.bells).toBeGreaterThanOrEqual(0);
        expect(e.bells).toBeLessThanOrEqual(4);
        expect(e.points % 50).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('a unit is sellable exactly when its outcome is a pair of rules.md §5', () => {
    fc.assert(
      fc.property(unit, (u) => {
        const e = evaluate(u);
        const pair = pairOf(e.bells, e.points);
        expect(unitProblems(u).length === 0).toBe(pair !== undefined);
        if (pair) expect(e.winCents).toBe(pair.lotPerEuroCents * (u.stakeCents / 100));
      }),
      { numRuns: 2000 },
    );
  });
});

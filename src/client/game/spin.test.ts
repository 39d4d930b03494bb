import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundaryCount,
  planSpin,
  spinLengthS,
  restingPlace,
  SAFE_FRACTION,
  SEGMENT_DEG,
  segmentUnderCursor,
  spinTarget,
} from './spin.ts';

/** Distance in degrees from the cursor to the nearest edge of the segment under it. */
function marginToEdge(rotation: number): number {
  const within = (((rotation + SEGMENT_DEG / 2) % SEGMENT_DEG) + SEGMENT_DEG) % SEGMENT_DEG;
  return Math.min(within, SEGMENT_DEG - within);
}

describe('segmentUnderCursor', () => {
  it('reads segment i at rotation −i × 60°', () => {
    for (let i = 0; i < 6; i++) expect(segmentUnderCursor(-i * SEGMENT_DEG)).toBe(i);
    expect(segmentUnderCursor(60)).toBe(5);
    expect(segmentUnderCursor(720 - 120)).toBe(2);
  });
});

describe('spinTarget', () => {
  it('lands well inside the server segment from any starting angle, always forward', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e5, max: 1e5, noNaN: true }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        (from, stop, turns, offset) => {
          const to = spinTarget(from, stop, turns, offset);
          expect(segmentUnderCursor(to)).toBe(stop);
          expect(to - from).toBeGreaterThanOrEqual(360 * turns);
          expect(to - from).toBeLessThan(360 * (turns + 1));
          // the middle 60 % leaves 20 % of the segment free on each side
          expect(marginToEdge(to)).toBeGreaterThanOrEqual(((1 - SAFE_FRACTION) / 2) * SEGMENT_DEG - 1e-6);
        },
      ),
    );
  });
});

describe('spinTarget at the edge of float rounding', () => {
  it('adds no extra turn for a landing a hair behind the start (found by the property above)', () => {
    expect(spinTarget(0, 0, 1, -1.5789838572446674e-15)).toBe(360);
  });
});

describe('planSpin', () => {
  it('gives wheels different turns and durations from different random draws', () => {
    const a = planSpin(0, 1, () => 0.1, 'full');
    const b = planSpin(0, 1, () => 0.9, 'full');
    expect(a.turns).not.toBe(b.turns);
    expect(a.durationS).not.toBe(b.durationS);
    expect(segmentUnderCursor(a.to)).toBe(1);
    expect(segmentUnderCursor(b.to)).toBe(1);
  });

  it('is short under reduced motion', () => {
    const plan = planSpin(10, 3, () => 0.5, 'reduced');
    expect(spinLengthS(plan)).toBeLessThan(1.5);
    expect(plan.kickS).toBe(0);
    expect(plan.settleS).toBe(0);
    expect(segmentUnderCursor(plan.to)).toBe(3);
  });

  it('under reduced motion draws only the landing point, as before quick spins', () => {
    let draws = 0;
    planSpin(0, 2, () => (draws++, 0.5), 'reduced');
    expect(draws).toBe(1);
  });

  it('makes a quick spin a short one (kick, run, settle) on the same stop, still turning forward', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.double({ min: 0, max: 0.999_999, noNaN: true }), { minLength: 3, maxLength: 3 }),
        (from, stop, draws) => {
          const full = planSpin(from, stop, () => draws[0]!, 'full');
          let i = 0;
          const quick = planSpin(from, stop, () => draws[i++]!, 'quick');
          expect(segmentUnderCursor(quick.to)).toBe(stop);
          expect(quick.turns).toBeGreaterThanOrEqual(2);
          expect(quick.to - from).toBeGreaterThanOrEqual(360 * quick.turns);
          expect(quick.kickS).toBeGreaterThan(0);
          expect(quick.settleS).toBeGreaterThan(0);
          expect(spinLengthS(quick)).toBeLessThanOrEqual(1.1);
          expect(spinLengthS(full)).toBeGreaterThan(4);
        },
      ),
    );
  });
});

describe('boundaryCount', () => {
  it('counts one boundary per 60° of travel', () => {
    expect(boundaryCount(0)).toBe(0);
    expect(boundaryCount(29)).toBe(0);
    expect(boundaryCount(31)).toBe(1);
    expect(boundaryCount(360 + 31) - boundaryCount(31)).toBe(6);
  });
});

describe('restingPlace', () => {
  it('reads back the stop and offset a wheel was shown at', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.integer({ min: -3, max: 3 }),
        (stop, offset, turns) => {
          const rotation = -stop * SEGMENT_DEG + offset * (SAFE_FRACTION / 2) * SEGMENT_DEG + 360 * turns;
          const place = restingPlace(rotation);
          expect(place.stop).toBe(stop);
          expect(place.offset).toBeCloseTo(offset, 9);
        },
      ),
    );
  });

  it('reads a wheel a few degrees past a centre as that segment, offset by those degrees', () => {
    expect(restingPlace(-2 * SEGMENT_DEG + 9)).toEqual({ stop: 2, offset: 9 / ((SAFE_FRACTION / 2) * SEGMENT_DEG) });
  });
});

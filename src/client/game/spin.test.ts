import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  angleAt,
  blurAmount,
  boundaryCount,
  boundaryCrossings,
  brakeOnto,
  phaseAt,
  planSpin,
  SLAM_STOP_S,
  spinMotion,
  velocityAt,
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

const FRAME = 1 / 60;
const paces = fc.constantFrom('full' as const, 'quick' as const);
/** A plan from seeded draws: any start, any stop, any of the four wheels launched together. */
const plans = fc
  .record({
    from: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    stop: fc.integer({ min: 0, max: 5 }),
    draws: fc.array(fc.double({ min: 0, max: 0.999_999, noNaN: true }), { minLength: 3, maxLength: 3 }),
    pace: paces,
    order: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ from, stop, draws, pace, order }) => {
    let i = 0;
    return { stop, plan: planSpin(from, stop, () => draws[i++]!, pace, order) };
  });

describe('spinMotion', () => {
  it('lands exactly on the plan’s target, the server’s segment, and rests there', () => {
    fc.assert(
      fc.property(plans, ({ stop, plan }) => {
        const motion = spinMotion(plan);
        expect(angleAt(motion, motion.lengthS)).toBe(plan.to);
        expect(angleAt(motion, motion.lengthS + 1)).toBe(plan.to);
        expect(Math.abs(angleAt(motion, motion.lengthS - 1e-9) - plan.to)).toBeLessThan(1e-6);
        expect(segmentUnderCursor(angleAt(motion, motion.lengthS))).toBe(stop);
        expect(angleAt(motion, 0)).toBe(plan.from);
      }),
    );
  });

  it('only goes forward from the wind-up to the arrival, with no jump in speed between its phases', () => {
    fc.assert(
      fc.property(plans, ({ plan }) => {
        const motion = spinMotion(plan);
        const forward = motion.stretches.filter((s) => !['wait', 'windUp', 'settle'].includes(s.phase));
        let last = -Infinity;
        for (let t = forward[0]!.startS; t <= forward.at(-1)!.startS + forward.at(-1)!.durationS; t += 0.005) {
          const deg = angleAt(motion, t);
          expect(deg).toBeGreaterThanOrEqual(last - 1e-9);
          last = deg;
        }
        for (const s of motion.stretches.slice(1)) {
          if (s.phase === 'windUp') continue;
          const before = velocityAt(motion, s.startS - 1e-7);
          const after = velocityAt(motion, s.startS + 1e-7);
          expect(Math.abs(after - before)).toBeLessThan(1);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('eases up to speed: a few degrees in the first frame of the run, not top speed at once', () => {
    fc.assert(
      fc.property(plans, ({ plan }) => {
        const motion = spinMotion(plan);
        const run = motion.stretches.find((s) => s.phase === 'spinUp')!;
        const first = angleAt(motion, run.startS + FRAME) - angleAt(motion, run.startS);
        const top = Math.max(...motion.stretches.map((s) => Math.abs(s.velocity(0.5)))) * FRAME;
        expect(first).toBeLessThan(plan.pace === 'full' ? 3 : 14);
        expect(first).toBeLessThan(top / 3);
      }),
    );
  });

  it('spends its slowest part crossing the last boundaries: each of the last three takes longer than any before', () => {
    fc.assert(
      fc.property(plans, ({ plan }) => {
        const motion = spinMotion(plan);
        const times = boundaryCrossings(motion);
        expect(times.length).toBe(boundaryCount(plan.to) - boundaryCount(plan.from));
        const gaps = times.slice(1).map((t, i) => t - times[i]!);
        const last = gaps.slice(-2);
        const before = gaps.slice(0, -2);
        expect(last[1]).toBeGreaterThan(last[0]!);
        expect(last[0]).toBeGreaterThanOrEqual(Math.max(...before) - 1e-9);
        // Each crossing is where the wheel passes a boundary, one tick each.
        for (const t of times) {
          expect(boundaryCount(angleAt(motion, t + 1e-6)) - boundaryCount(angleAt(motion, t - 1e-6))).toBe(1);
        }
        // No long dead crawl inside the winning segment: it arrives soon after the last tick.
        expect(motion.lengthS - times.at(-1)!).toBeLessThan(plan.pace === 'full' ? 1.1 : 0.35);
        if (plan.pace === 'full') expect(last[1]).toBeGreaterThan(0.35);
      }),
    );
  });

  it('settles by carrying the arrival a little past the target and easing back onto it, within the segment', () => {
    fc.assert(
      fc.property(plans, ({ plan }) => {
        const motion = spinMotion(plan);
        const settle = motion.stretches.find((s) => s.phase === 'settle')!;
        const arrival = velocityAt(motion, settle.startS - 1e-7);
        expect(arrival).toBeGreaterThan(0);
        expect(velocityAt(motion, settle.startS + 1e-7)).toBeCloseTo(arrival, 3);
        let past = 0;
        for (let t = settle.startS; t < motion.lengthS; t += 0.002) past = Math.max(past, angleAt(motion, t) - plan.to);
        expect(past).toBeGreaterThan(0.3);
        expect(past).toBeLessThan(4);
        expect(segmentUnderCursor(plan.to + past)).toBe(segmentUnderCursor(plan.to));
        // The way back is gentler than the way in.
        expect(Math.abs(velocityAt(motion, motion.lengthS - 1e-6))).toBeLessThan(arrival);
      }),
    );
  });

  it('blurs the face at speed: a quick spin reaches full blur, a full one rests sharp', () => {
    const quick = spinMotion(planSpin(0, 2, () => 0.5, 'quick'));
    const peak = Math.max(...quick.stretches.map((s) => blurAmount(s.velocity(0.5))));
    expect(peak).toBe(1);
    expect(blurAmount(0)).toBe(0);
    expect(blurAmount(0.25 * SEGMENT_DEG * 60)).toBe(0);
    expect(blurAmount(0.5 * SEGMENT_DEG * 60)).toBe(1);
    const full = spinMotion(planSpin(0, 2, () => 0.5, 'full'));
    const crawl = full.stretches.find((s) => s.phase === 'crawl')!;
    expect(blurAmount(crawl.velocity(0))).toBe(0);
  });

  it('staggers wheels launched together, but not under reduced motion', () => {
    const delays = [0, 1, 2, 3].map((order) => planSpin(0, 1, () => 0.5, 'full', order).delayS);
    expect(delays[0]).toBe(0);
    for (let i = 1; i < 4; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]!);
    expect(planSpin(0, 1, () => 0.5, 'reduced', 3).delayS).toBe(0);
    const waiting = spinMotion(planSpin(0, 1, () => 0.5, 'full', 2));
    expect(phaseAt(waiting, 0.05)).toBe('wait');
    expect(angleAt(waiting, 0.05)).toBe(0);
  });

  it('keeps reduced motion’s one plain short turn onto the stop', () => {
    const plan = planSpin(10, 3, () => 0.5, 'reduced');
    const motion = spinMotion(plan);
    expect(motion.stretches.map((s) => s.phase)).toEqual(['turn']);
    expect(motion.lengthS).toBeLessThan(1.5);
    expect(angleAt(motion, motion.lengthS)).toBe(plan.to);
  });
});

describe('brakeOnto (slam-stop)', () => {
  it('brakes onto the same landing in about 0.2 s: forward only, never past it, at rest on it', () => {
    fc.assert(
      fc.property(plans, fc.double({ min: 0, max: 1, noNaN: true }), ({ plan }, at) => {
        const motion = spinMotion(plan);
        const t = at * motion.lengthS;
        const from = angleAt(motion, t);
        const brake = brakeOnto(from, velocityAt(motion, t), plan.to);
        expect(brake.durationS).toBeLessThanOrEqual(SLAM_STOP_S + 1e-9);
        expect(brake.to).toBeLessThanOrEqual(plan.to + 1e-9);
        expect(((((brake.to - plan.to) % 360) + 360) % 360) % 360).toBeCloseTo(0, 6);
        expect(brake.angleAt(brake.durationS)).toBe(brake.to);
        let last = brake.angleAt(0);
        for (let s = 0; s <= brake.durationS; s += 0.002) {
          const deg = brake.angleAt(s);
          expect(deg).toBeGreaterThanOrEqual(last - 1e-9);
          expect(deg).toBeLessThanOrEqual(Math.max(brake.to, from) + 1e-9);
          last = deg;
        }
        if (brake.durationS > 0) {
          const end = brake.angleAt(brake.durationS) - brake.angleAt(brake.durationS - 1e-6);
          expect(end / 1e-6).toBeLessThan(1);
        }
      }),
    );
  });
});

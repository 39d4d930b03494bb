import { SEGMENTS_PER_WHEEL } from '../../rules/unit.ts';

/**
 * Wheel geometry, in degrees, clockwise, 0 = straight up where the cursor is.
 * Segment i is drawn centred on i × 60° of the wheel; turning the wheel by r puts the
 * segment whose centre is at −r under the cursor.
 */
export const SEGMENT_DEG = 360 / SEGMENTS_PER_WHEEL;

const mod = (a: number, n: number) => ((a % n) + n) % n;

/** The segment under the cursor when the wheel is turned by `rotationDeg`. */
export function segmentUnderCursor(rotationDeg: number): number {
  return mod(Math.round(-rotationDeg / SEGMENT_DEG), SEGMENTS_PER_WHEEL);
}

/**
 * How many segment boundaries have passed the cursor since rotation 0; it changes by
 * one each time a boundary goes by (for the tick).
 */
export function boundaryCount(rotationDeg: number): number {
  return Math.floor((rotationDeg + SEGMENT_DEG / 2) / SEGMENT_DEG);
}

/** Where the cursor may land inside a segment: the middle 60 %, never near an edge. */
export const SAFE_FRACTION = 0.6;

/**
 * The final angle for a wheel now at `fromDeg` to stop on segment `stop`: always
 * forward (clockwise), at least `turns` full turns, the cursor at `offset` (−1…1) of
 * the safe part of the segment. Computed from the current angle, so any start works.
 */
export function spinTarget(fromDeg: number, stop: number, turns: number, offset: number): number {
  const clamped = Math.max(-1, Math.min(1, offset));
  const landing = -stop * SEGMENT_DEG + clamped * (SAFE_FRACTION / 2) * SEGMENT_DEG;
  const forward = mod(landing - fromDeg, 360);
  // A landing a hair behind the start rounds to a hair under 360: that is no extra turn.
  return fromDeg + (forward > 360 - 1e-9 ? 0 : forward) + 360 * turns;
}

/**
 * How a spin moves: `full` (the show), `quick` (the player's quick-spin setting: the same
 * kick, run and settle, compressed), `reduced` (reduced motion: one plain turn).
 */
export type SpinPace = 'full' | 'quick' | 'reduced';

export interface SpinPlan {
  /** How it moves: the view plays a reduced-motion spin as one plain turn. */
  pace: SpinPace;
  from: number;
  to: number;
  /** Full turns before the target, so wheels differ. */
  turns: number;
  /** The run to the target (with its small overshoot). */
  durationS: number;
  /** The kick back before the run; 0: none (reduced motion). */
  kickS: number;
  /** The settle from the overshoot onto the target; 0: no overshoot (reduced motion). */
  settleS: number;
}

const PACES: Record<SpinPace, { turns: [number, number]; runS: [number, number]; kickS: number; settleS: number }> = {
  full: { turns: [4, 3], runS: [3.6, 1.4], kickS: 0.22, settleS: 0.45 },
  quick: { turns: [2, 2], runS: [0.6, 0.2], kickS: 0.06, settleS: 0.18 },
  reduced: { turns: [1, 0], runS: [0.9, 0], kickS: 0, settleS: 0 },
};

/** A spin's length from its start until the wheel rests on its stop. */
export function spinLengthS(plan: SpinPlan): number {
  return plan.kickS + plan.durationS + plan.settleS;
}

/**
 * A spin for one wheel with its own small differences (turns, duration, landing
 * point), drawn from `random` so tests can fix them; short when motion is reduced or
 * the player chose quick spins. A fixed part draws nothing (reduced motion: only the
 * landing point), so a seeded table falls as it did before quick spins existed.
 */
export function planSpin(fromDeg: number, stop: number, random: () => number, pace: SpinPace): SpinPlan {
  const p = PACES[pace];
  const turns = p.turns[0] + (p.turns[1] > 0 ? Math.floor(random() * p.turns[1]) : 0);
  const durationS = p.runS[0] + (p.runS[1] > 0 ? random() * p.runS[1] : 0);
  const offset = random() * 2 - 1;
  return {
    pace,
    from: fromDeg,
    to: spinTarget(fromDeg, stop, turns, offset),
    turns,
    durationS,
    kickS: p.kickS,
    settleS: p.settleS,
  };
}

/**
 * Where a wheel turned by `rotationDeg` rests, as `showStopped` takes it: the segment
 * under the cursor and the cursor's offset from that segment's centre (−1…1 of the safe
 * part). Puts a wheel back at an angle with no animation.
 */
export function restingPlace(rotationDeg: number): { stop: number; offset: number } {
  const stop = segmentUnderCursor(rotationDeg);
  const fromCentreDeg = ((((rotationDeg + stop * SEGMENT_DEG) % 360) + 540) % 360) - 180;
  return { stop, offset: fromCentreDeg / ((SAFE_FRACTION / 2) * SEGMENT_DEG) };
}

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

export interface SpinPlan {
  from: number;
  to: number;
  /** Full turns before the target, so wheels differ. */
  turns: number;
  durationS: number;
}

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
 * A spin for one wheel with its own small differences (turns, duration, landing
 * point), drawn from `random` so tests can fix them; short when motion is reduced.
 */
export function planSpin(fromDeg: number, stop: number, random: () => number, reducedMotion: boolean): SpinPlan {
  const turns = reducedMotion ? 1 : 4 + Math.floor(random() * 3);
  const durationS = reducedMotion ? 0.9 : 3.6 + random() * 1.4;
  const offset = random() * 2 - 1;
  return { from: fromDeg, to: spinTarget(fromDeg, stop, turns, offset), turns, durationS };
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

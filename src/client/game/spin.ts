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
 * phases, compressed), `reduced` (reduced motion: one plain turn).
 */
export type SpinPace = 'full' | 'quick' | 'reduced';

export interface SpinPlan {
  /** How it moves: the view plays a reduced-motion spin as one plain turn. */
  pace: SpinPace;
  from: number;
  to: number;
  /** Full turns before the target, so wheels differ. */
  turns: number;
  /** A wheel launched with others waits its turn, so the four never start in lockstep. */
  delayS: number;
  /** The run from the spin-up to the arrival on the target (see spinMotion). */
  durationS: number;
  /** The wind-up (a small pull back) before the run; 0: none (reduced motion). */
  kickS: number;
  /** The settle past the target and back onto it; 0: none (reduced motion). */
  settleS: number;
}

interface PaceShape {
  turns: [number, number];
  /** From the wind-up to the rest: the least, and how much more at random. */
  totalS: [number, number];
  staggerS: number;
  windUp: { deg: number; s: number };
  spinUpS: number;
  brakeS: number;
  /** The slow part: the last `boundaries` boundaries before the winning segment's own. */
  crawl: { boundaries: number; fromDegS: number; toDegS: number };
  /** How fast the wheel reaches the target, carried into the settle. */
  arrivalDegS: number;
  settleS: number;
}

const PACES: Record<SpinPace, PaceShape> = {
  full: {
    turns: [4, 3],
    totalS: [4.5, 1.0],
    staggerS: 0.09,
    windUp: { deg: 6, s: 0.16 },
    spinUpS: 0.5,
    brakeS: 1.0,
    crawl: { boundaries: 2, fromDegS: 170, toDegS: 110 },
    arrivalDegS: 40,
    settleS: 0.36,
  },
  quick: {
    turns: [2, 2],
    totalS: [0.86, 0.1],
    staggerS: 0.025,
    windUp: { deg: 3, s: 0.05 },
    spinUpS: 0.1,
    brakeS: 0.2,
    crawl: { boundaries: 1, fromDegS: 620, toDegS: 420 },
    arrivalDegS: 80,
    settleS: 0.14,
  },
  reduced: {
    turns: [1, 0],
    totalS: [0.9, 0],
    staggerS: 0,
    windUp: { deg: 0, s: 0 },
    spinUpS: 0,
    brakeS: 0,
    crawl: { boundaries: 0, fromDegS: 0, toDegS: 0 },
    arrivalDegS: 0,
    settleS: 0,
  },
};

/** A spin's length from the launch until the wheel rests on its stop. */
export function spinLengthS(plan: SpinPlan): number {
  return spinMotion(plan).lengthS;
}

/**
 * A spin for one wheel with its own small differences (turns, duration, landing
 * point), drawn from `random` so tests can fix them; short when motion is reduced or
 * the player chose quick spins. `order`: the wheel's place among those launched together
 * (each waits a little longer). A fixed part draws nothing (reduced motion: only the
 * landing point), so a seeded table falls as it did before quick spins existed.
 */
export function planSpin(fromDeg: number, stop: number, random: () => number, pace: SpinPace, order = 0): SpinPlan {
  const p = PACES[pace];
  const turns = p.turns[0] + (p.turns[1] > 0 ? Math.floor(random() * p.turns[1]) : 0);
  const totalS = p.totalS[0] + (p.totalS[1] > 0 ? random() * p.totalS[1] : 0);
  const offset = random() * 2 - 1;
  return {
    pace,
    from: fromDeg,
    to: spinTarget(fromDeg, stop, turns, offset),
    turns,
    delayS: order * p.staggerS,
    durationS: totalS - p.windUp.s - p.settleS,
    kickS: p.windUp.s,
    settleS: p.settleS,
  };
}

/** The phases of a spin, in order (`turn`: the one plain turn of reduced motion). */
export type SpinPhase = 'wait' | 'windUp' | 'spinUp' | 'cruise' | 'brake' | 'crawl' | 'approach' | 'settle' | 'turn';

/** One phase: from `startS` for `durationS`, the angle `fromDeg + offset(u)` at u = 0…1 of it. */
interface Stretch {
  phase: SpinPhase;
  startS: number;
  durationS: number;
  fromDeg: number;
  offset(u: number): number;
  /** Degrees per second at u. */
  velocity(u: number): number;
}

/** A spin as a function of time: where the wheel is, how fast it turns, and when it rests. */
export interface SpinMotion {
  readonly plan: SpinPlan;
  readonly lengthS: number;
  readonly stretches: readonly Stretch[];
}

/** The velocity eases from v0 to v1 (smoothstep): no jolt at either end, and the distance of a linear ramp. */
function ramp(phase: SpinPhase, v0: number, v1: number, durationS: number): Omit<Stretch, 'startS' | 'fromDeg'> {
  return {
    phase,
    durationS,
    offset: (u) => durationS * (v0 * u + (v1 - v0) * (u ** 3 - u ** 4 / 2)),
    velocity: (u) => v0 + (v1 - v0) * (3 * u ** 2 - 2 * u ** 3),
  };
}

/** The velocity falls at a steady rate from v0 to v1: each boundary takes longer than the last. */
function steady(phase: SpinPhase, v0: number, v1: number, durationS: number): Omit<Stretch, 'startS' | 'fromDeg'> {
  return {
    phase,
    durationS,
    offset: (u) => durationS * (v0 * u + ((v1 - v0) * u ** 2) / 2),
    velocity: (u) => v0 + (v1 - v0) * u,
  };
}

/**
 * The spin's motion. Full and quick spins: a wait (the stagger), a wind-up (back and
 * forward again, leaving with some speed), an eased spin-up to top speed, a cruise, an
 * eased brake down to a crawl, the crawl across the last boundaries before the winning
 * segment (slower at each: the suspense, one tick each), the arrival on the target, and a
 * settle that carries the arrival's speed a little past the target and eases back onto it,
 * ending on it exactly. The speed never jumps between phases. The cruise takes what time
 * the plan leaves; top speed is what the distance needs.
 */
export function spinMotion(plan: SpinPlan): SpinMotion {
  const stretches: Stretch[] = [];
  let at = 0;
  const push = (s: Omit<Stretch, 'startS' | 'fromDeg'>, fromDeg: number) => {
    stretches.push({ ...s, startS: at, fromDeg });
    at += s.durationS;
  };
  const distance = plan.to - plan.from;
  if (plan.pace === 'reduced') {
    const T = plan.durationS;
    push(
      {
        phase: 'turn',
        durationS: T,
        offset: (u) => distance * (1 - (1 - u) ** 2),
        velocity: (u) => (2 * distance * (1 - u)) / T,
      },
      plan.from,
    );
    return { plan, lengthS: at, stretches };
  }
  const p = PACES[plan.pace];
  const lastBoundary = SEGMENT_DEG * Math.floor((plan.to - SEGMENT_DEG / 2) / SEGMENT_DEG) + SEGMENT_DEG / 2;
  const crawlFrom = lastBoundary - SEGMENT_DEG * p.crawl.boundaries;
  const arrival = plan.to - lastBoundary;
  const crawlS = (2 * (lastBoundary - crawlFrom)) / (p.crawl.fromDegS + p.crawl.toDegS);
  const approachS = (2 * arrival) / (p.crawl.toDegS + p.arrivalDegS);
  const cruiseS = Math.max(0, plan.durationS - p.spinUpS - p.brakeS - crawlS - approachS);
  const kickS = plan.kickS;
  const windUpDeg = p.windUp.deg;
  const leaveDegS = kickS > 0 ? (windUpDeg * Math.PI) / kickS : 0;
  const top =
    (crawlFrom - plan.from - (p.spinUpS * leaveDegS) / 2 - (p.brakeS * p.crawl.fromDegS) / 2) /
    (p.spinUpS / 2 + cruiseS + p.brakeS / 2);

  if (plan.delayS > 0) push({ phase: 'wait', durationS: plan.delayS, offset: () => 0, velocity: () => 0 }, plan.from);
  if (kickS > 0) {
    push(
      {
        phase: 'windUp',
        durationS: kickS,
        offset: (u) => -windUpDeg * Math.sin(Math.PI * u),
        velocity: (u) => -leaveDegS * Math.cos(Math.PI * u),
      },
      plan.from,
    );
  }
  push(ramp('spinUp', leaveDegS, top, p.spinUpS), plan.from);
  const cruiseFrom = plan.from + (p.spinUpS * (leaveDegS + top)) / 2;
  push({ phase: 'cruise', durationS: cruiseS, offset: (u) => top * cruiseS * u, velocity: () => top }, cruiseFrom);
  push(ramp('brake', top, p.crawl.fromDegS, p.brakeS), cruiseFrom + top * cruiseS);
  push(steady('crawl', p.crawl.fromDegS, p.crawl.toDegS, crawlS), crawlFrom);
  push(ramp('approach', p.crawl.toDegS, p.arrivalDegS, approachS), lastBoundary);
  // x = A·sin(πu)·(1 − u/2): leaves the target at the arrival's speed, and is back on it at u = 1.
  const T = plan.settleS;
  const A = (p.arrivalDegS * T) / Math.PI;
  push(
    {
      phase: 'settle',
      durationS: T,
      offset: (u) => (u >= 1 ? 0 : A * Math.sin(Math.PI * u) * (1 - u / 2)),
      velocity: (u) => (A / T) * (Math.PI * Math.cos(Math.PI * u) * (1 - u / 2) - Math.sin(Math.PI * u) / 2),
    },
    plan.to,
  );
  return { plan, lengthS: at, stretches };
}

function stretchAt(motion: SpinMotion, t: number): { s: Stretch; u: number } | null {
  for (const s of motion.stretches) {
    if (t < s.startS + s.durationS) return { s, u: s.durationS > 0 ? Math.max(0, (t - s.startS) / s.durationS) : 1 };
  }
  return null;
}

/** The wheel's angle `t` seconds into the spin: the plan's start before, exactly its target after. */
export function angleAt(motion: SpinMotion, t: number): number {
  if (t <= 0) return motion.plan.from;
  const at = stretchAt(motion, t);
  return at ? at.s.fromDeg + at.s.offset(at.u) : motion.plan.to;
}

/** Degrees per second `t` seconds into the spin (0 at rest). */
export function velocityAt(motion: SpinMotion, t: number): number {
  if (t <= 0) return 0;
  const at = stretchAt(motion, t);
  return at ? at.s.velocity(at.u) : 0;
}

/** Which phase the spin is in at `t` (null at rest after it). */
export function phaseAt(motion: SpinMotion, t: number): SpinPhase | null {
  return t < 0 ? 'wait' : (stretchAt(motion, t)?.s.phase ?? null);
}

/**
 * When each segment boundary passes the cursor on the way to the target, in seconds
 * from the launch (the ticks). The angle only rises between the wind-up and the settle,
 * and neither of those reaches a boundary (the landing keeps 12° from each edge).
 */
export function boundaryCrossings(motion: SpinMotion): number[] {
  const forward = motion.stretches.filter((s) => s.phase !== 'wait' && s.phase !== 'windUp' && s.phase !== 'settle');
  const t0 = forward[0]!.startS;
  const last = forward.at(-1)!;
  const t1 = last.startS + last.durationS;
  const times: number[] = [];
  for (let k = boundaryCount(motion.plan.from) + 1; k <= boundaryCount(motion.plan.to); k++) {
    const at = k * SEGMENT_DEG - SEGMENT_DEG / 2;
    let lo = t0;
    let hi = t1;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (angleAt(motion, mid) < at) lo = mid;
      else hi = mid;
    }
    times.push(hi);
  }
  return times;
}

/**
 * How much of the motion-blurred face shows at this speed (0…1): none below 0.3 of a
 * segment per 60 Hz frame, all of it from half a segment per frame, where a two-colour
 * face would strobe or seem to turn backwards.
 */
export function blurAmount(velocityDegS: number): number {
  const perFrame = Math.abs(velocityDegS) / 60 / SEGMENT_DEG;
  return Math.max(0, Math.min(1, (perFrame - 0.3) / 0.2));
}

/** A slam-stop: how long the wheels take to brake onto their stops once the player hurries. */
export const SLAM_STOP_S = 0.2;

export interface BrakeMotion {
  from: number;
  to: number;
  durationS: number;
  angleAt(t: number): number;
}

/**
 * The player hurries: from `fromDeg` at `velocityDegS`, brake onto the same landing as
 * the plan's (the same segment, the same point in it), fewer turns ahead, in about
 * `brakeS`: never backwards, never past it, the speed falling to zero on it.
 */
export function brakeOnto(fromDeg: number, velocityDegS: number, targetDeg: number, brakeS = SLAM_STOP_S): BrakeMotion {
  const v0 = Math.max(0, velocityDegS);
  // A cubic with this start speed stays monotonic while it covers at least a third of v0·T.
  const least = (v0 * brakeS) / 3;
  const turnsAhead = Math.max(0, Math.floor((targetDeg - fromDeg - least) / 360));
  const to = targetDeg - 360 * turnsAhead;
  const d = to - fromDeg;
  const T = d <= 0 ? 0 : v0 > 0 ? Math.min(brakeS, (3 * d) / v0) : brakeS;
  return {
    from: fromDeg,
    to,
    durationS: T,
    angleAt: (t) => {
      if (t >= T) return to;
      if (t <= 0) return fromDeg;
      const u = t / T;
      return fromDeg + d * (3 * u ** 2 - 2 * u ** 3) + v0 * T * (u - 2 * u ** 2 + u ** 3);
    },
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

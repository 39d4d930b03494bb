import { isStakeCents, type StakeCents } from './stakes.ts';

/** The bell counts for JEU 1; the others are cake-shop symbols that win nothing. */
export const SYMBOLS = ['bell', 'cupcake', 'macaron', 'donut', 'cherry', 'croissant'] as const;
export type SymbolName = (typeof SYMBOLS)[number];
export const BELL: SymbolName = 'bell';

export const WHEELS_PER_UNIT = 4;
export const SEGMENTS_PER_WHEEL = 6;
/** Segment points: multiples of 50 from 0 to 500 (rules.md §6). */
export const POINT_STEP = 50;
export const MAX_SEGMENT_POINTS = 500;
export const POINT_VALUES: readonly number[] = Array.from(
  { length: MAX_SEGMENT_POINTS / POINT_STEP + 1 },
  (_, i) => i * POINT_STEP,
);

export interface Segment {
  symbol: SymbolName;
  points: number;
}

/** Six segments in clockwise order, and the index of the one under the cursor after the spin. */
export interface Wheel {
  segments: Segment[];
  stop: number;
}

export interface Unit {
  stakeCents: StakeCents;
  wheels: Wheel[];
}

export function isSymbolName(value: unknown): value is SymbolName {
  return typeof value === 'string' && (SYMBOLS as readonly string[]).includes(value);
}

export function isSegmentPoints(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 0 &&
    value <= MAX_SEGMENT_POINTS &&
    value % POINT_STEP === 0
  );
}

/** Problems with the shape of a wheel, as short English sentences; empty when it is well-formed. */
export function wheelProblems(wheel: unknown, label = 'wheel'): string[] {
  if (typeof wheel !== 'object' || wheel === null) return [`${label} is not an object`];
  const { segments, stop } = wheel as Partial<Wheel>;
  const problems: string[] = [];
  if (!Array.isArray(segments) || segments.length !== SEGMENTS_PER_WHEEL) {
    problems.push(`${label} must have ${SEGMENTS_PER_WHEEL} segments`);
  } else {
    segments.forEach((segment: unknown, i) => {
      if (typeof segment !== 'object' || segment === null) {
        problems.push(`${label} segment ${i} is not an object`);
        return;
      }
      const s = segment as Partial<Segment>;
      if (!isSymbolName(s.symbol)) problems.push(`${label} segment ${i} has an unknown symbol`);
      if (!isSegmentPoints(s.points))
        problems.push(`${label} segment ${i} points must be a multiple of ${POINT_STEP} in 0–${MAX_SEGMENT_POINTS}`);
    });
  }
  if (typeof stop !== 'number' || !Number.isInteger(stop) || stop < 0 || stop >= SEGMENTS_PER_WHEEL) {
    problems.push(`${label} stop must be an integer in 0–${SEGMENTS_PER_WHEEL - 1}`);
  }
  return problems;
}

/** Problems with the shape of a unit; empty when it is well-formed (its lot is checked apart). */
export function unitShapeProblems(unit: unknown): string[] {
  if (typeof unit !== 'object' || unit === null) return ['unit is not an object'];
  const { stakeCents, wheels } = unit as Partial<Unit>;
  const problems: string[] = [];
  if (!isStakeCents(stakeCents)) problems.push('stakeCents must be 100, 200, 300 or 500');
  if (!Array.isArray(wheels) || wheels.length !== WHEELS_PER_UNIT) {
    problems.push(`unit must have ${WHEELS_PER_UNIT} wheels`);
  } else {
    wheels.forEach((wheel: unknown, i) => problems.push(...wheelProblems(wheel, `wheel ${i + 1}`)));
  }
  return problems;
}

/** The segment under each cursor. */
export function cursorSegments(wheels: readonly Wheel[]): Segment[] {
  return wheels.map((w) => w.segments[w.stop]!);
}

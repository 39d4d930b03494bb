import {
  POINT_STEP,
  SEGMENTS_PER_WHEEL,
  SYMBOLS,
  WHEELS_PER_UNIT,
  unitShapeProblems,
  type StakeCents,
  type Unit,
  type Wheel,
} from '../../rules/index.ts';

/**
 * A unit's wheels as 52 ASCII characters, stored with each play so that the history
 * never depends on a block file: per wheel, 6 segments of (symbol index, points/50 in
 * base 11) then the stop index. Cheaper to write and read than JSON.
 */
const WHEEL_CHARS = SEGMENTS_PER_WHEEL * 2 + 1;
export const UNIT_CODE_LENGTH = WHEELS_PER_UNIT * WHEEL_CHARS;

export function encodeUnit(unit: Unit): string {
  let code = '';
  for (const wheel of unit.wheels) {
    for (const segment of wheel.segments) {
      code += SYMBOLS.indexOf(segment.symbol).toString() + (segment.points / POINT_STEP).toString(11);
    }
    code += wheel.stop.toString();
  }
  return code;
}

export class UnitCodeError extends Error {}

export function decodeUnit(code: string, stakeCents: StakeCents): Unit {
  if (code.length !== UNIT_CODE_LENGTH) throw new UnitCodeError(`unit code must be ${UNIT_CODE_LENGTH} characters`);
  const wheels: Wheel[] = [];
  for (let w = 0; w < WHEELS_PER_UNIT; w++) {
    const base = w * WHEEL_CHARS;
    const segments = [];
    for (let s = 0; s < SEGMENTS_PER_WHEEL; s++) {
      const symbol = SYMBOLS[Number.parseInt(code[base + 2 * s]!, 10)];
      const points = Number.parseInt(code[base + 2 * s + 1]!, 11) * POINT_STEP;
      if (symbol === undefined || Number.isNaN(points)) throw new UnitCodeError(`unit code has a bad segment: ${code}`);
      segments.push({ symbol, points });
    }
    wheels.push({ segments, stop: Number.parseInt(code[base + WHEEL_CHARS - 1]!, 10) });
  }
  const unit: Unit = { stakeCents, wheels };
  const problems = unitShapeProblems(unit);
  if (problems.length > 0) throw new UnitCodeError(`unit code is malformed: ${problems.join('; ')}`);
  return unit;
}

import {
  SEGMENTS_PER_WHEEL,
  WHEELS_PER_UNIT,
  jeu1WinCents,
  jeu2WinCents,
  pairOf,
  type Segment,
  type StakeCents,
  type Unit,
  type Wheel,
} from '../rules/index.ts';
import { BELL_CODE, PAIR_CODES, POINT_INDEX_MAX, POINTS_PER_INDEX, SYMBOL_CODES } from './codes.ts';

/**
 * One unit's record in a block body (docs/block-format.md):
 * bytes 0–23: wheel w segment s at w*6+s, `symbol code << 4 | points / 50`;
 * bytes 24–25: little-endian u16, bits 3w..3w+2 = wheel w's stop, bits 12–15 = pair code.
 */
export const UNIT_BYTES = 26;
export const STOPS_OFFSET = WHEELS_PER_UNIT * SEGMENTS_PER_WHEEL;

export function recordWord(body: Uint8Array, offset: number): number {
  return body[offset + STOPS_OFFSET]! | (body[offset + STOPS_OFFSET + 1]! << 8);
}

export function decodeSegment(byte: number): Segment {
  const symbol = SYMBOL_CODES[byte >> 4];
  const index = byte & 15;
  if (symbol === undefined || index > POINT_INDEX_MAX)
    throw new RangeError(`malformed segment byte 0x${byte.toString(16)}`);
  return { symbol, points: index * POINTS_PER_INDEX };
}

/** Decodes the record at `offset` into a Unit (one small object graph; not for hot loops). */
export function decodeUnit(body: Uint8Array, offset: number, stakeCents: StakeCents): Unit {
  const word = recordWord(body, offset);
  const wheels: Wheel[] = [];
  for (let w = 0; w < WHEELS_PER_UNIT; w++) {
    const segments: Segment[] = [];
    for (let s = 0; s < SEGMENTS_PER_WHEEL; s++)
      segments.push(decodeSegment(body[offset + w * SEGMENTS_PER_WHEEL + s]!));
    const stop = (word >> (3 * w)) & 7;
    if (stop >= SEGMENTS_PER_WHEEL) throw new RangeError(`malformed stop ${stop}`);
    wheels.push({ segments, stop });
  }
  return { stakeCents, wheels };
}

/** Max sum of four point indices, +1: the width of the (bells, points) lookup tables. */
export const POINT_SUMS = WHEELS_PER_UNIT * POINT_INDEX_MAX + 1;

/**
 * Lookup tables indexed by `bells * POINT_SUMS + sum of cursor point indices`, built from
 * src/rules (jeu1WinCents, jeu2WinCents, pairOf), so hot loops need no objects.
 */
export interface OutcomeTables {
  /** JEU 1 + JEU 2 in cents at the stake. */
  lotCents: Int32Array;
  jeu1Cents: Int32Array;
  jeu2Cents: Int32Array;
  /** Pair code of that outcome, or -1 when no block may hold it. */
  pairCode: Int8Array;
}

const outcomeTablesByStake = new Map<StakeCents, OutcomeTables>();

export function outcomeTables(stake: StakeCents): OutcomeTables {
  const cached = outcomeTablesByStake.get(stake);
  if (cached) return cached;
  const size = (WHEELS_PER_UNIT + 1) * POINT_SUMS;
  const tables: OutcomeTables = {
    lotCents: new Int32Array(size),
    jeu1Cents: new Int32Array(size),
    jeu2Cents: new Int32Array(size),
    pairCode: new Int8Array(size),
  };
  for (let bells = 0; bells <= WHEELS_PER_UNIT; bells++) {
    for (let sum = 0; sum < POINT_SUMS; sum++) {
      const i = bells * POINT_SUMS + sum;
      const points = sum * POINTS_PER_INDEX;
      tables.jeu1Cents[i] = jeu1WinCents(bells, stake);
      tables.jeu2Cents[i] = jeu2WinCents(points, stake);
      tables.lotCents[i] = tables.jeu1Cents[i]! + tables.jeu2Cents[i]!;
      const pair = pairOf(bells, points);
      tables.pairCode[i] = pair ? PAIR_CODES.indexOf(pair.key) : -1;
    }
  }
  outcomeTablesByStake.set(stake, tables);
  return tables;
}

/**
 * Index into OutcomeTables of what the cursors show, or -1 if a stop or a cursor segment
 * is malformed. Integer arithmetic only.
 */
const WHEELS = WHEELS_PER_UNIT;
const SEGMENTS = SEGMENTS_PER_WHEEL;
const BELL = BELL_CODE;
const SYMBOL_COUNT = SYMBOL_CODES.length;
const TOP_INDEX = POINT_INDEX_MAX;
const SUMS_WIDTH = WHEELS_PER_UNIT * POINT_INDEX_MAX + 1;

export function cursorOutcomeIndex(body: Uint8Array, offset: number): number {
  const word = recordWord(body, offset);
  let bells = 0;
  let sum = 0;
  for (let w = 0; w < WHEELS; w++) {
    const stop = (word >> (3 * w)) & 7;
    if (stop >= SEGMENTS) return -1;
    const byte = body[offset + w * SEGMENTS + stop]!;
    const symbol = byte >> 4;
    const index = byte & 15;
    if (symbol >= SYMBOL_COUNT || index > TOP_INDEX) return -1;
    if (symbol === BELL) bells++;
    sum += index;
  }
  return bells * SUMS_WIDTH + sum;
}

import { SEGMENTS_PER_WHEEL, WHEELS_PER_UNIT, type PairKey, type StakeCents, type Unit } from '../rules/index.ts';
import { BELL_CODE, PAIRS_BY_CODE, POINT_INDEX_MAX, POINTS_PER_INDEX, SYMBOL_CODES, pairCode } from './codes.ts';
import { STOPS_OFFSET, UNIT_BYTES, decodeUnit } from './record.ts';
import { sourceFromFloat, type RandomSource } from './random.ts';

/**
 * The face generator: given a unit's pair, draws four wheels whose cursors show exactly
 * that pair, with plausible, varied segments around them. Tables are built once from
 * src/rules' pairs.
 */

// Module-local copies: imported bindings can compile to getters, too slow for the hot loop.
const WHEELS = WHEELS_PER_UNIT;
const SEGMENTS = SEGMENTS_PER_WHEEL;
const BELL = BELL_CODE;
const STOPS = STOPS_OFFSET;
const POINT_VALUES_COUNT = POINT_INDEX_MAX + 1;

/** Per pair code: every 4-tuple of cursor point indices whose total lies in the pair's range, packed 4 bits each. */
const CURSOR_POINTS: readonly Uint32Array[] = PAIRS_BY_CODE.map((pair) => {
  const tuples: number[] = [];
  for (let t = 0; t < POINT_VALUES_COUNT ** WHEELS_PER_UNIT; t++) {
    let rest = t;
    let packed = 0;
    let sum = 0;
    for (let w = 0; w < WHEELS_PER_UNIT; w++) {
      const idx = rest % POINT_VALUES_COUNT;
      rest = Math.floor(rest / POINT_VALUES_COUNT);
      packed |= idx << (4 * w);
      sum += idx * POINTS_PER_INDEX;
    }
    if (sum >= pair.minPoints && sum <= pair.maxPoints) tuples.push(packed);
  }
  if (tuples.length === 0) throw new Error(`no cursor points reach pair ${pair.key}`);
  return Uint32Array.from(tuples);
});

/** Per pair code: every choice of wheels (bit w = wheel w) that shows a bell under its cursor. */
const BELL_MASKS: readonly Uint8Array[] = PAIRS_BY_CODE.map((pair) => {
  const masks: number[] = [];
  for (let m = 0; m < 1 << WHEELS_PER_UNIT; m++) {
    let bits = 0;
    for (let w = 0; w < WHEELS_PER_UNIT; w++) bits += (m >> w) & 1;
    if (bits === pair.bells) masks.push(m);
  }
  return Uint8Array.from(masks);
});

/** Every segment byte (symbol code << 4 | point index): off-cursor segments are drawn uniformly from these. */
const ANY_SEGMENT: Uint8Array = (() => {
  const all: number[] = [];
  for (let s = 0; s < SYMBOL_CODES.length; s++) for (let p = 0; p <= POINT_INDEX_MAX; p++) all.push((s << 4) | p);
  return Uint8Array.from(all);
})();

const NON_BELL_SYMBOLS = SYMBOL_CODES.length - 1;
const ANY_SEGMENT_COUNT = ANY_SEGMENT.length;

/**
 * Writes the UNIT_BYTES record of a unit of the given pair code at `offset`.
 * No allocation: the generator calls this a million times.
 */
export function writeFaces(out: Uint8Array, offset: number, code: number, random: RandomSource): void {
  const tuples = CURSOR_POINTS[code]!;
  const masks = BELL_MASKS[code]!;
  const points = tuples[random.belowMedium(tuples.length)]!;
  const bellMask = masks[random.belowSmall(masks.length)]!;
  let stops = 0;
  for (let w = 0; w < WHEELS; w++) {
    const base = offset + w * SEGMENTS;
    const stop = random.belowSmall(SEGMENTS);
    const symbol = (bellMask >> w) & 1 ? BELL : 1 + random.belowSmall(NON_BELL_SYMBOLS);
    const cursor = (symbol << 4) | ((points >> (4 * w)) & 15);
    // Redraw the rest of the wheel in the (rare) case that all six symbols came out the same.
    let sameSymbols: boolean;
    do {
      sameSymbols = true;
      for (let s = 0; s < SEGMENTS; s++) {
        const segment = s === stop ? cursor : ANY_SEGMENT[random.belowSmall(ANY_SEGMENT_COUNT)]!;
        out[base + s] = segment;
        if (segment >> 4 !== symbol) sameSymbols = false;
      }
    } while (sameSymbols);
    stops |= stop << (3 * w);
  }
  stops |= code << 12;
  out[offset + STOPS] = stops & 0xff;
  out[offset + STOPS + 1] = stops >> 8;
}

/**
 * A unit of the given pair with freshly drawn faces, from `random` (a `() => number`
 * in [0, 1)). Server test fixtures use it; blocks use the same face generator.
 */
export function unitForPair(pair: PairKey, stakeCents: StakeCents, random: () => number): Unit {
  const record = new Uint8Array(UNIT_BYTES);
  writeFaces(record, 0, pairCode(pair), sourceFromFloat(random));
  return decodeUnit(record, 0, stakeCents);
}

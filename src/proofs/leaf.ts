import {
  POINT_STEP,
  SEGMENTS_PER_WHEEL,
  WHEELS_PER_UNIT,
  type StakeCents,
  type SymbolName,
  type Unit,
} from '../rules/index.ts';
import { compress, hashShortInto, leafState, wordsToBytes } from './sha256.ts';

/**
 * A leaf of a block's commitment: one unit in sale order (docs/fairness.md). Its
 * preimage is 53 bytes, big-endian, so that hashing it costs one SHA-256 compression:
 *
 *   0   1  tag 0x00 (a leaf; a node is a hash of 2–4 hashes, 64–128 bytes)
 *   1  16  salt: the unit's own, derived from the block's seed
 *  17   4  position in the sale order
 *  21   2  stake, cents
 *  23  24  faces: wheel w segment s at 6w + s, `symbol code << 4 | points / 50`
 *  47   2  stops: bits 3w … 3w+2 = wheel w's stop
 *  49   4  the lot the block declares for the unit, cents
 *
 * The salt is what keeps a proof from telling anything about the units beside it: with
 * it, a sibling hash is a hash of 16 unknown random bytes and a unit.
 */
export const LEAF_PREIMAGE_BYTES = 53;
export const SALT_BYTES = 16;
export const FACE_BYTES = WHEELS_PER_UNIT * SEGMENTS_PER_WHEEL;
const LEAF_TAG = 0x00;

/** The faces' symbol codes, fixed by the commitment format (the block file's codes too). */
export const LEAF_SYMBOL_CODES: readonly SymbolName[] = ['bell', 'cupcake', 'macaron', 'donut', 'cherry', 'croissant'];

/** Writes a leaf's preimage into `out` (53 bytes); `faces` and `salts` are read at their offsets. */
export function writeLeafPreimage(
  out: Uint8Array,
  position: number,
  stakeCents: number,
  faces: Uint8Array,
  facesOffset: number,
  stops: number,
  lotCents: number,
  salts: Uint8Array,
  saltOffset: number,
): void {
  out[0] = LEAF_TAG;
  for (let i = 0; i < SALT_BYTES; i++) out[1 + i] = salts[saltOffset + i]!;
  out[17] = position >>> 24;
  out[18] = (position >>> 16) & 255;
  out[19] = (position >>> 8) & 255;
  out[20] = position & 255;
  out[21] = stakeCents >>> 8;
  out[22] = stakeCents & 255;
  for (let i = 0; i < FACE_BYTES; i++) out[23 + i] = faces[facesOffset + i]!;
  out[47] = stops >>> 8;
  out[48] = stops & 255;
  out[49] = lotCents >>> 24;
  out[50] = (lotCents >>> 16) & 255;
  out[51] = (lotCents >>> 8) & 255;
  out[52] = lotCents & 255;
}

const be = (a: number, b: number, c: number, d: number) => (a << 24) | (b << 16) | (c << 8) | d;
const schedule = new Int32Array(64);

/**
 * The same leaf as `writeLeafPreimage` then SHA-256, with the padded block's 16 words
 * built straight from the inputs (a leaf is one compression; building bytes first and
 * reading them back cost a third again). Written as 8 words into `out` at `outOffset`.
 * A test holds the two to the same hash for every unit of a test block.
 */
export function hashLeafInto(
  out: Int32Array,
  outOffset: number,
  position: number,
  stakeCents: number,
  faces: Uint8Array,
  f: number,
  stops: number,
  lotCents: number,
  salts: Uint8Array,
  s: number,
): void {
  const w = schedule;
  w[0] = be(LEAF_TAG, salts[s]!, salts[s + 1]!, salts[s + 2]!);
  w[1] = be(salts[s + 3]!, salts[s + 4]!, salts[s + 5]!, salts[s + 6]!);
  w[2] = be(salts[s + 7]!, salts[s + 8]!, salts[s + 9]!, salts[s + 10]!);
  w[3] = be(salts[s + 11]!, salts[s + 12]!, salts[s + 13]!, salts[s + 14]!);
  w[4] = be(salts[s + 15]!, position >>> 24, (position >>> 16) & 255, (position >>> 8) & 255);
  w[5] = be(position & 255, stakeCents >>> 8, stakeCents & 255, faces[f]!);
  w[6] = be(faces[f + 1]!, faces[f + 2]!, faces[f + 3]!, faces[f + 4]!);
  w[7] = be(faces[f + 5]!, faces[f + 6]!, faces[f + 7]!, faces[f + 8]!);
  w[8] = be(faces[f + 9]!, faces[f + 10]!, faces[f + 11]!, faces[f + 12]!);
  w[9] = be(faces[f + 13]!, faces[f + 14]!, faces[f + 15]!, faces[f + 16]!);
  w[10] = be(faces[f + 17]!, faces[f + 18]!, faces[f + 19]!, faces[f + 20]!);
  w[11] = be(faces[f + 21]!, faces[f + 22]!, faces[f + 23]!, stops >>> 8);
  w[12] = be(stops & 255, lotCents >>> 24, (lotCents >>> 16) & 255, (lotCents >>> 8) & 255);
  w[13] = be(lotCents & 255, 0x80, 0, 0); // the message ends, the padding's 1 bit
  w[14] = 0;
  w[15] = LEAF_PREIMAGE_BYTES * 8; // the message's length in bits
  const state = leafState();
  compress(state, w);
  for (let i = 0; i < 8; i++) out[outOffset + i] = state[i]!;
}

/** A unit's faces and stops in the leaf's encoding. The unit must be well-formed (rules' unitShapeProblems). */
export function encodeFaces(unit: Unit): { faces: Uint8Array; stops: number } {
  const faces = new Uint8Array(FACE_BYTES);
  let stops = 0;
  unit.wheels.forEach((wheel, w) => {
    wheel.segments.forEach((segment, s) => {
      faces[w * SEGMENTS_PER_WHEEL + s] =
        (LEAF_SYMBOL_CODES.indexOf(segment.symbol) << 4) | (segment.points / POINT_STEP);
    });
    stops |= wheel.stop << (3 * w);
  });
  return { faces, stops };
}

export interface LeafFields {
  position: number;
  stakeCents: StakeCents;
  unit: Unit;
  lotCents: number;
  salt: Uint8Array;
}

/** The leaf hash of one unit (32 bytes). */
export function leafHash(fields: LeafFields): Uint8Array {
  if (fields.salt.length !== SALT_BYTES) throw new RangeError(`a salt is ${SALT_BYTES} bytes`);
  const { faces, stops } = encodeFaces(fields.unit);
  const preimage = new Uint8Array(LEAF_PREIMAGE_BYTES);
  writeLeafPreimage(preimage, fields.position, fields.stakeCents, faces, 0, stops, fields.lotCents, fields.salt, 0);
  const words = new Int32Array(8);
  hashShortInto(preimage, words, 0);
  const out = new Uint8Array(32);
  wordsToBytes(words, 0, out, 0);
  return out;
}

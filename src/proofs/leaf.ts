import {
  POINT_STEP,
  SEGMENTS_PER_WHEEL,
  WHEELS_PER_UNIT,
  type StakeCents,
  type SymbolName,
  type Unit,
} from '../rules/index.ts';
import type { Sha256 } from './hash.ts';

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
export const LEAF_TAG = 0x00;

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

/** The leaf hash of one unit (32 bytes), with the SHA-256 given (a checker's: hash.ts). */
export function leafHash(fields: LeafFields, sha256: Sha256): Uint8Array {
  if (fields.salt.length !== SALT_BYTES) throw new RangeError(`a salt is ${SALT_BYTES} bytes`);
  const { faces, stops } = encodeFaces(fields.unit);
  const preimage = new Uint8Array(LEAF_PREIMAGE_BYTES);
  writeLeafPreimage(preimage, fields.position, fields.stakeCents, faces, 0, stops, fields.lotCents, fields.salt, 0);
  return sha256(preimage);
}

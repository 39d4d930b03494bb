import { LEAF_PREIMAGE_BYTES, LEAF_TAG } from './leaf.ts';
import { compress, leafState } from './sha256.ts';

/**
 * A block's leaves hashed with the tuned SHA-256 (sha256.ts), for building its commitment
 * (src/emission): a million of them per block. A checker hashes a leaf's preimage
 * (leaf.ts) with a maintained SHA-256 instead.
 */

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

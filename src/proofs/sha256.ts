/**
 * SHA-256 (FIPS 180-4) tuned for building a block's commitment: a million leaves and a
 * third as many nodes per block, hashed on 32-bit words without allocating (a call into
 * a library per hash would cost more than the hashing). Only the commitment's builders
 * use it (src/emission, tunedLeaf.ts, tree.ts); the checkers (`npm run verify`, the
 * browser) hash with a maintained SHA-256 passed in (hash.ts), and a test holds this one
 * to node:crypto's on messages of every length around the block boundaries.
 */

const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const IV = Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** Fills w[t..t+3] of the message schedule (16 ≤ t ≤ 60). */
function expandFour(w: Int32Array, t: number): void {
  for (let u = t; u < t + 4; u++) {
    const x = w[u - 15]!;
    const y = w[u - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[u] = (w[u - 16]! + s0 + w[u - 7]! + s1) | 0;
  }
}

/** Fills w[16..63] from the block's sixteen big-endian words in w[0..15]. */
export function expandSchedule(w: Int32Array): void {
  for (let t = 16; t < 64; t += 4) expandFour(w, t);
}

/**
 * One compression: the block's words in w[0..15] (w has 64 slots, its tail is
 * overwritten with the schedule unless `scheduled`, when w is a full precomputed
 * schedule), added into `state` (8 words). Four rounds per turn with the working
 * variables renamed instead of shifted: this is the hot loop of a block's commitment.
 */
export function compress(state: Int32Array, w: Int32Array, scheduled = false): void {
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let t = 0; t < 64; t += 4) {
    if (t >= 16 && !scheduled) expandFour(w, t);
    let t1 =
      (h +
        (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) +
        (g ^ (e & (f ^ g))) +
        K[t]! +
        w[t]!) |
      0;
    h =
      (t1 +
        ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b))))) |
      0;
    d = (d + t1) | 0;
    t1 =
      (g +
        (((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) +
        (f ^ (d & (e ^ f))) +
        K[t + 1]! +
        w[t + 1]!) |
      0;
    g =
      (t1 +
        ((((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) + ((h & a) | (b & (h | a))))) |
      0;
    c = (c + t1) | 0;
    t1 =
      (f +
        (((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) +
        (e ^ (c & (d ^ e))) +
        K[t + 2]! +
        w[t + 2]!) |
      0;
    f =
      (t1 +
        ((((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) + ((g & h) | (a & (g | h))))) |
      0;
    b = (b + t1) | 0;
    t1 =
      (e +
        (((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) +
        (d ^ (b & (c ^ d))) +
        K[t + 3]! +
        w[t + 3]!) |
      0;
    e =
      (t1 +
        ((((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) + ((f & g) | (h & (f | g))))) |
      0;
    a = (a + t1) | 0;
    // Four rounds move every variable four places: rename instead of copying each round.
    const na = e;
    const nb = f;
    const nc = g;
    const nd = h;
    e = a;
    f = b;
    g = c;
    h = d;
    a = na;
    b = nb;
    c = nc;
    d = nd;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** Reads 16 big-endian words from `bytes` at `offset` into w[0..15]. */
export function loadWords(w: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const p = offset + 4 * i;
    w[i] = (bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!;
  }
}

/** Writes 8 words big-endian: the digest's bytes. */
export function wordsToBytes(words: Int32Array, offset: number, out: Uint8Array, outOffset: number): void {
  for (let i = 0; i < 8; i++) {
    const v = words[offset + i]!;
    const p = outOffset + 4 * i;
    out[p] = v >>> 24;
    out[p + 1] = (v >>> 16) & 255;
    out[p + 2] = (v >>> 8) & 255;
    out[p + 3] = v & 255;
  }
}

/** SHA-256 of any bytes. */
export function sha256(message: Uint8Array): Uint8Array {
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const bits = message.length * 8;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bits / 0x1_0000_0000));
  view.setUint32(padded.length - 4, bits >>> 0);
  const state = new Int32Array(8);
  state.set(IV);
  const w = new Int32Array(64);
  for (let i = 0; i < blocks; i++) {
    loadWords(w, padded, i * 64);
    compress(state, w);
  }
  const digest = new Uint8Array(32);
  wordsToBytes(state, 0, digest, 0);
  return digest;
}

/** The schedule of the padding block that ends a message of exactly `blocks` × 64 bytes. */
function paddingSchedule(blocks: number): Int32Array {
  const w = new Int32Array(64);
  w[0] = 0x80000000 | 0;
  w[15] = blocks * 512;
  expandSchedule(w);
  return w;
}
const PADDING_SCHEDULES = [1, 2, 3, 4].map(paddingSchedule);

const wordsSchedule = new Int32Array(64);
const wordsState = new Int32Array(8);

/**
 * SHA-256 of `wordCount` words (big-endian, a multiple of 8: whole child hashes) read
 * from `src` at `offset`, written as 8 words into `out` at `outOffset`. The tree's nodes
 * are hashed this way, without bytes in between; a message of whole 64-byte blocks
 * ends with a constant padding block whose schedule is computed once.
 */
export function hashWordsInto(
  src: Int32Array,
  offset: number,
  wordCount: number,
  out: Int32Array,
  outOffset: number,
): void {
  if (wordCount % 8 !== 0 || wordCount < 8 || wordCount > 64) throw new RangeError('8 to 64 words, whole hashes');
  const w = wordsSchedule;
  const state = wordsState;
  state.set(IV);
  const fullBlocks = wordCount >>> 4;
  for (let block = 0; block < fullBlocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = src[offset + 16 * block + i]!;
    compress(state, w);
  }
  if (wordCount % 16 === 0) {
    compress(state, PADDING_SCHEDULES[fullBlocks - 1]!, true);
  } else {
    // Half a block of words left: they, the padding and the length fill the last block.
    for (let i = 0; i < 8; i++) w[i] = src[offset + 16 * fullBlocks + i]!;
    w[8] = 0x80000000 | 0;
    for (let i = 9; i < 15; i++) w[i] = 0;
    w[15] = wordCount * 32;
    compress(state, w);
  }
  for (let i = 0; i < 8; i++) out[outOffset + i] = state[i]!;
}

const leafStateWords = new Int32Array(8);

/** A reused state set to the initial hash value, for a one-block hash built in place. */
export function leafState(): Int32Array {
  leafStateWords.set(IV);
  return leafStateWords;
}

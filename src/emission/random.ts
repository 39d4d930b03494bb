import { createCipheriv, createHash, randomBytes } from 'node:crypto';

/** Seeds are 1–32 bytes, given as hex. A seedless block gets 32 fresh random bytes. */
export const MAX_SEED_BYTES = 32;

export function parseSeedHex(seedHex: string): Uint8Array {
  if (typeof seedHex !== 'string' || !/^(?:[0-9a-fA-F]{2}){1,32}$/.test(seedHex)) {
    throw new RangeError(`bad seed: expected 2 to 64 hex digits (an even number), got ${JSON.stringify(seedHex)}`);
  }
  return Uint8Array.from(Buffer.from(seedHex, 'hex'));
}

export function freshSeed(): Uint8Array {
  return Uint8Array.from(randomBytes(MAX_SEED_BYTES));
}

/** The key of one of a seed's streams: SHA-256 of `SPINCAKE block v1 <purpose>`, a zero byte, the seed. */
export function streamKey(seed: Uint8Array, purpose: string): Buffer {
  return createHash('sha256').update(`SPINCAKE block v1 ${purpose}\0`).update(seed).digest();
}

/** Draws uniform integers in [0, n): `belowSmall` for n ≤ 256, `belowLarge` for n ≤ 2^32. */
export interface RandomSource {
  belowSmall(n: number): number;
  belowMedium(n: number): number;
  belowLarge(n: number): number;
}

const CHUNK_BYTES = 256 * 1024;
const TWO_POW_32 = 0x1_0000_0000;

/**
 * A deterministic cryptographic random stream: the AES-256-CTR keystream under a key
 * derived from the seed and a purpose label, so that the sale order and the faces
 * use independent streams. Integers are drawn by rejection, so every value in
 * [0, n) is exactly equally likely.
 */
export class KeystreamRandom implements RandomSource {
  private readonly cipher;
  private readonly zeros = new Uint8Array(CHUNK_BYTES);
  private buffer = new Uint8Array(0);
  private pos = 0;

  constructor(seed: Uint8Array, purpose: string) {
    this.cipher = createCipheriv('aes-256-ctr', streamKey(seed, purpose), Buffer.alloc(16));
  }

  private refill(): void {
    // A plain Uint8Array view (not the Buffer subclass), so element reads stay monomorphic.
    const chunk = this.cipher.update(this.zeros);
    this.buffer = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    this.pos = 0;
  }

  /** One uniform integer in [0, n) for 1 ≤ n ≤ 256, from single bytes. */
  belowSmall(n: number): number {
    const limit = 256 - (256 % n);
    for (;;) {
      if (this.pos >= this.buffer.length) this.refill();
      const b = this.buffer[this.pos++]!;
      if (b < limit) return b % n;
    }
  }

  /** One uniform integer in [0, n) for 1 ≤ n ≤ 65 536, from 16-bit words. */
  belowMedium(n: number): number {
    const limit = 65_536 - (65_536 % n);
    for (;;) {
      if (this.pos + 2 > this.buffer.length) this.refill();
      const x = this.buffer[this.pos]! | (this.buffer[this.pos + 1]! << 8);
      this.pos += 2;
      if (x < limit) return x % n;
    }
  }

  /** One uniform integer in [0, n) for 1 ≤ n ≤ 2^32, from 32-bit words. */
  belowLarge(n: number): number {
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    for (;;) {
      if (this.pos + 4 > this.buffer.length) this.refill();
      const buf = this.buffer;
      const p = this.pos;
      const x = (buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16) | (buf[p + 3]! << 24)) >>> 0;
      this.pos = p + 4;
      if (x < limit) return x % n;
    }
  }

  below(n: number): number {
    return n <= 256 ? this.belowSmall(n) : n <= 65_536 ? this.belowMedium(n) : this.belowLarge(n);
  }
}

/** Adapts a `() => number` in [0, 1) (e.g. Math.random or a test PRNG) to a RandomSource. */
export function sourceFromFloat(random: () => number): RandomSource {
  const below = (n: number) => {
    const r = random();
    if (!(r >= 0 && r < 1)) throw new RangeError(`random() must return a number in [0, 1), got ${r}`);
    return Math.floor(r * n);
  };
  return { belowSmall: below, belowMedium: below, belowLarge: below };
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Random bytes drawn 4 KiB at a time: a getRandomValues call costs ≈ 2 µs whatever its size, ten times a UUID's share. */
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

function fromPool(bytes: Uint8Array): Uint8Array {
  if (poolOffset + bytes.length > pool.length) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  bytes.set(pool.subarray(poolOffset, poolOffset + bytes.length));
  poolOffset += bytes.length;
  return bytes;
}

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. Ids made
 * later sort later, so a database index keyed by them grows at its end: one index page per
 * committed batch instead of a random page per row, which a random (version 4) id costs
 * once the table outgrows the cache. Used for the client's playIds and the game's wallet
 * requestIds (at the game and at the operator's wallet alike).
 */
export function uuidV7(nowMs: number = Date.now(), fillRandom: (bytes: Uint8Array) => Uint8Array = fromPool): string {
  const bytes = fillRandom(new Uint8Array(16));
  let ms = Math.floor(nowMs);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  let hex = '';
  for (const byte of bytes) hex += HEX[byte];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

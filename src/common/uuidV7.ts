const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Random bytes drawn 4 KiB at a time: a getRandomValues call costs about the same whatever its size, many times a UUID's share. */
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

/** A version-7 UUID as written here (lowercase): what the tests check of ids made by the game, here or in SQL. */
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The Unix milliseconds a version-7 UUID begins with. */
export function uuidV7Millis(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

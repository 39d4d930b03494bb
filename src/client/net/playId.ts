/**
 * A fresh playId for one « Jouer » press (kept across its retries): a UUID version 7
 * (RFC 9562), 48 bits of Unix milliseconds then 74 random bits. Ids made later sort
 * later, so the server's unique index on playId grows at its end — one index page per
 * committed batch instead of a random page per play, which a random (version 4) id costs
 * once the table outgrows the cache. The server accepts any UUID; only this client's ids
 * are ordered. The time in the id is the press's, which the play shows anyway.
 */
export function newPlayId(
  nowMs: number = Date.now(),
  fillRandom: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): string {
  const bytes = fillRandom(new Uint8Array(16));
  let ms = Math.floor(nowMs);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

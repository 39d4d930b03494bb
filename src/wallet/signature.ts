import { hash, timingSafeEqual } from 'node:crypto';
import { memoByKey } from './memo.ts';

/**
 * Signatures of the wallet API: the header carries the HMAC-SHA256 of the raw body under
 * the shared secret, in exactly one encoding, 64 lowercase hex digits. Requests and answers
 * alike; a GET (the statement, admin reads) signs its request target (`/statement?from=…`)
 * instead of a body.
 */
export const SIGNATURE_HEADER = 'X-Spincake-Signature';
/** The same name as Node's `IncomingMessage.headers` spells it. */
export const SIGNATURE_HEADER_LOWER = 'x-spincake-signature';

/** What the contract asks of WALLET_SECRET (the game server's PORTAL_SECRET rule). */
export const MIN_SECRET_LENGTH = 32;

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/** SHA-256's block: a longer key is hashed first, a shorter one padded with zeros (RFC 2104). */
const BLOCK_BYTES = 64;

/** A secret's key XORed with HMAC's inner and outer pads. */
interface Pads {
  inner: Buffer;
  outer: Buffer;
}

/**
 * Each secret's padded keys, made once. The HMAC is computed from two one-shot hashes over
 * them rather than through createHmac, whose Hmac object and keyed OpenSSL context, made for
 * every signature, cost more than hashing a wallet call's small body.
 */
const padsOf = memoByKey((secret): Pads => {
  const given = Buffer.from(secret, 'utf8');
  const key = Buffer.alloc(BLOCK_BYTES);
  (given.length > BLOCK_BYTES ? hash('sha256', given, 'buffer') : given).copy(key);
  const pads = { inner: Buffer.alloc(BLOCK_BYTES), outer: Buffer.alloc(BLOCK_BYTES) };
  for (let i = 0; i < BLOCK_BYTES; i++) {
    pads.inner[i] = key[i]! ^ 0x36;
    pads.outer[i] = key[i]! ^ 0x5c;
  }
  return pads;
});

/** Lowercase hex HMAC-SHA256(secret, rawBody): SHA-256(outer pad ‖ SHA-256(inner pad ‖ body)). */
export function signBody(secret: string, rawBody: string | Uint8Array): string {
  const { inner, outer } = padsOf(secret);
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const innerHash = hash('sha256', Buffer.concat([inner, body]), 'buffer');
  return hash('sha256', Buffer.concat([outer, innerHash]), 'hex');
}

/**
 * Whether `header` is the signature of `rawBody`: 64 lowercase hex digits (anything else,
 * uppercase included, is refused) compared in constant time. An array (a header sent twice)
 * is refused.
 */
export function verifySignature(
  secret: string,
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
): boolean {
  if (typeof header !== 'string' || !HEX_SIGNATURE.test(header)) return false;
  const given = Buffer.from(header, 'hex');
  const expected = Buffer.from(signBody(secret, rawBody), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

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

/**
 * Each secret's key, made once: an HMAC keyed by a string converts and checks the key on
 * every call, a fifth of the signature's cost for a wallet call's small body. A process
 * uses one or two secrets (the wallet's, an admin's); a test may use a few more.
 */
const keys = new Map<string, KeyObject>();

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 64) keys.clear();
    keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  }
  return key;
}

/** Lowercase hex HMAC-SHA256(secret, rawBody). */
export function signBody(secret: string, rawBody: string | Uint8Array): string {
  return createHmac('sha256', keyOf(secret)).update(rawBody).digest('hex');
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

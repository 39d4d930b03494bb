import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WalletKeyring } from './keyring.ts';

/**
 * Signatures of the wallet API, version 2 (`../shared/spec/wallet-api.md`, Transport): every
 * message, request and answer alike, carries the unix time it was signed at and the hex
 * HMAC-SHA256 of `path + "\n" + timestamp + "\n" + raw body` under a secret of the keyring,
 * in exactly one encoding (64 lowercase hex digits). The path binds the message to its call:
 * a signed rollback is no win, a bet's answer answers nothing else. An answer signs the path
 * of the request it answers. A GET (the statement, admin reads) has no body: its path is its
 * request target, query included, so that the page asked for is the page answered.
 */
export const SIGNATURE_HEADER = 'X-Spincake-Signature';
export const TIMESTAMP_HEADER = 'X-Spincake-Timestamp';
export const KEY_ID_HEADER = 'X-Spincake-Key-Id';
/** The same names as Node's `IncomingMessage.headers` (and undici's) spell them. */
export const SIGNATURE_HEADER_LOWER = 'x-spincake-signature';
export const TIMESTAMP_HEADER_LOWER = 'x-spincake-timestamp';
export const KEY_ID_HEADER_LOWER = 'x-spincake-key-id';

/** How far a message's timestamp may be from the receiver's clock, either way. */
export const CLOCK_WINDOW_SECONDS = 300;

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^[0-9]{1,12}$/;

/** The message's headers as they are sent: the timestamp, the signature and which key made it. */
export type SignedHeaders = {
  [TIMESTAMP_HEADER]: string;
  [SIGNATURE_HEADER]: string;
  [KEY_ID_HEADER]: string;
};

/** Now in whole unix seconds, as a timestamp header carries it. */
export function unixSeconds(now: number = Date.now()): number {
  return Math.floor(now / 1000);
}

/** Lowercase hex HMAC-SHA256(secret, path + "\n" + timestamp + "\n" + body). */
export function signMessage(
  secret: string,
  path: string,
  timestamp: number | string,
  body: string | Uint8Array,
): string {
  return createHmac('sha256', secret).update(`${path}\n${timestamp}\n`).update(body).digest('hex');
}

/** The headers that sign `body` sent to (or answered from) `path`: the keyring's first key, the time now. */
export function signedHeaders(
  keyring: WalletKeyring,
  path: string,
  body: string | Uint8Array,
  now: number = Date.now(),
): SignedHeaders {
  const timestamp = unixSeconds(now);
  const signer = keyring.signer;
  return {
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signMessage(signer.secret, path, timestamp, body),
    [KEY_ID_HEADER]: signer.id,
  };
}

type Header = string | readonly string[] | null | undefined;

/** What the receiver read from a message's headers. */
export interface ReceivedSignature {
  timestamp: Header;
  signature: Header;
  keyId?: Header;
}

/** `reason` completes « the message … », e.g. « the answer is not signed ». */
export type Verified = { ok: true } | { ok: false; reason: string };

function sameHex(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'hex');
  const b = Buffer.from(expected, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

const MISMATCH: Verified = { ok: false, reason: 'signature does not match' };

/**
 * Whether a message to or from `path` was signed by a key of the keyring within the clock
 * window. The signature must be 64 lowercase hex digits (anything else, uppercase included,
 * does not match) and is compared in constant time; a header sent twice (an array) is
 * refused. A message naming its key is checked with that key alone; one naming none, with each.
 */
export function verifyMessage(
  keyring: WalletKeyring,
  path: string,
  body: string | Uint8Array,
  received: ReceivedSignature,
  now: number = Date.now(),
): Verified {
  const { timestamp, signature, keyId } = received;
  if (signature === undefined || signature === null) return { ok: false, reason: 'is not signed' };
  if (typeof signature !== 'string' || !HEX_SIGNATURE.test(signature)) return MISMATCH;
  if (typeof timestamp !== 'string' || !UNIX_SECONDS.test(timestamp)) {
    return { ok: false, reason: 'has no timestamp in whole unix seconds' };
  }
  if (Math.abs(unixSeconds(now) - Number(timestamp)) > CLOCK_WINDOW_SECONDS) {
    return { ok: false, reason: `was signed more than ${CLOCK_WINDOW_SECONDS} s away from this clock` };
  }
  let candidates = keyring.keys;
  if (keyId !== undefined && keyId !== null) {
    const named = typeof keyId === 'string' ? keyring.keys.find((key) => key.id === keyId) : undefined;
    if (named === undefined) return { ok: false, reason: 'is signed with a key this side does not hold' };
    candidates = [named];
  }
  for (const key of candidates) {
    if (sameHex(signature, signMessage(key.secret, path, timestamp, body))) return { ok: true };
  }
  return MISMATCH;
}

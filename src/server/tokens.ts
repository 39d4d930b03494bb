import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Signed tokens: `base64url(JSON payload) + "." + base64url(HMAC-SHA256(payload part))`.
 * Used twice: the portal's launch tokens (signed with PORTAL_SECRET) and our own
 * session tokens (signed with SESSION_KEYS, kept out of the database, so that sessions
 * survive restarts, every instance accepts them, and a copy of the data mints none).
 */

function sign(part: string, key: string | Buffer): string {
  return createHmac('sha256', key).update(part).digest('base64url');
}

export function signToken(payload: object, key: string | Buffer): string {
  const part = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${part}.${sign(part, key)}`;
}

/** The payload of a well-signed token, or null for anything forged or malformed. */
export function verifyToken(token: string, key: string | Buffer): Record<string, unknown> | null {
  if (token.length > 2048) return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const part = token.slice(0, dot);
  return verifiedPayload(part, part, token.slice(dot + 1), key);
}

/** The JSON object in `part` when `signature` is the one of `signed`; else null. */
function verifiedPayload(
  signed: string,
  part: string,
  signature: string,
  key: string | Buffer,
): Record<string, unknown> | null {
  // The signature's text itself is compared, not its decoded bytes: one encoding only
  // (unpadded base64url, its unused trailing bits zero), so a token has exactly one spelling.
  const given = Buffer.from(signature, 'utf8');
  const expected = Buffer.from(sign(signed, key), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Portal player ids: short, printable, no separators that could confuse logs or keys. */
export const PORTAL_PLAYER_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A launch token's own id: the portal makes a fresh one per launch (a UUID, say). */
export const LAUNCH_TOKEN_ID = /^[A-Za-z0-9_-]{8,128}$/;
/** How far ahead of this server's clock a portal's `iat` may be. */
export const LAUNCH_CLOCK_SKEW_SECONDS = 60;

export interface LaunchClaims {
  playerId: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** Issued at, seconds since the epoch (default: now). */
  iat?: number;
  /** The game it opens (default `spincake`, GAME_ID). */
  aud?: string;
  /** Its own id, used once (default: a fresh UUID). */
  jti?: string;
}

/** What the portal does: a launch token naming its player and this game, used once before `exp`. */
export function signLaunchToken(claims: LaunchClaims, portalSecret: string): string {
  const iat = claims.iat ?? Math.min(Math.floor(Date.now() / 1000), claims.exp);
  return signToken(
    {
      playerId: claims.playerId,
      iat,
      exp: claims.exp,
      aud: claims.aud ?? 'spincake',
      jti: claims.jti ?? randomUUID(),
    },
    portalSecret,
  );
}

export interface LaunchRules {
  /** The audience a token must name (GAME_ID). */
  gameId: string;
  /** The longest validity accepted: exp − iat. */
  maxSeconds: number;
}

export type LaunchCheck = { ok: true; playerId: string; jti: string; exp: number } | { ok: false; reason: string };

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

/** A well-signed, current launch token for this game; whether its jti was used is the caller's to check. */
export function checkLaunchToken(
  token: string,
  portalSecret: string,
  nowSeconds: number,
  rules: LaunchRules,
): LaunchCheck {
  const payload = verifyToken(token, portalSecret);
  if (!payload) return { ok: false, reason: 'the launch token is not signed by the portal' };
  const { playerId, exp, iat, aud, jti } = payload;
  if (typeof playerId !== 'string' || !PORTAL_PLAYER_ID.test(playerId)) {
    return { ok: false, reason: 'the launch token names no valid player' };
  }
  if (!isTime(exp)) return { ok: false, reason: 'the launch token has no expiry' };
  if (!isTime(iat)) return { ok: false, reason: 'the launch token has no issue time (iat)' };
  if (aud !== rules.gameId)
    return { ok: false, reason: `the launch token is not for this game (aud must be "${rules.gameId}")` };
  if (typeof jti !== 'string' || !LAUNCH_TOKEN_ID.test(jti)) {
    return { ok: false, reason: 'the launch token has no valid id (jti: 8–128 of A–Z a–z 0–9 _ -)' };
  }
  if (exp - iat > rules.maxSeconds || exp <= iat) {
    return { ok: false, reason: `the launch token must be valid at most ${rules.maxSeconds} s (exp − iat)` };
  }
  if (iat > nowSeconds + LAUNCH_CLOCK_SKEW_SECONDS)
    return { ok: false, reason: 'the launch token is issued in the future' };
  if (exp <= nowSeconds) return { ok: false, reason: 'the launch token has expired' };
  return { ok: true, playerId, jti, exp };
}

/** A session: its own id (to end it), its player, when it was opened and when it ends. */
export interface SessionClaims {
  sessionId: string;
  playerId: string;
  /** Opened at, seconds since the epoch. */
  iat: number;
  exp: number;
}

/** The keys session tokens are signed and checked with (sessions/sessionKeys.ts). */
export interface SessionSigningKeys {
  signing: { id: string; key: Buffer };
  byId: ReadonlyMap<string, { key: Buffer }>;
}

/**
 * A session token names the key that signed it: `keyId.payload.signature`, the signature
 * over `keyId.payload`, so that the key id cannot be swapped without breaking it.
 */
export function signSession(claims: SessionClaims, keys: SessionSigningKeys): string {
  const { id, key } = keys.signing;
  const payload = { s: claims.sessionId, p: claims.playerId, i: claims.iat, x: claims.exp };
  const part = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${id}.${part}.${sign(`${id}.${part}`, key)}`;
}

export function checkSession(token: string, keys: SessionSigningKeys, nowSeconds: number): SessionClaims | null {
  if (token.length > 2048) return null;
  const idEnd = token.indexOf('.');
  const partEnd = token.indexOf('.', idEnd + 1);
  if (idEnd <= 0 || partEnd <= idEnd + 1 || token.indexOf('.', partEnd + 1) !== -1) return null;
  const entry = keys.byId.get(token.slice(0, idEnd));
  if (!entry) return null;
  const signed = token.slice(0, partEnd);
  const payload = verifiedPayload(signed, token.slice(idEnd + 1, partEnd), token.slice(partEnd + 1), entry.key);
  if (!payload) return null;
  const { s, p, i, x } = payload;
  if (typeof s !== 'string' || typeof p !== 'string' || !isTime(i) || !isTime(x) || x <= nowSeconds) return null;
  return { sessionId: s, playerId: p, iat: i, exp: x };
}

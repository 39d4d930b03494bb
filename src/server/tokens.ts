import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed tokens: `base64url(JSON payload) + "." + base64url(HMAC-SHA256(payload part))`.
 * Used twice: the portal's launch tokens (signed with PORTAL_SECRET) and our own
 * session tokens (signed with a key kept in the database, so sessions survive restarts
 * and every instance accepts them).
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
  // The signature's text itself is compared, not its decoded bytes: one encoding only
  // (unpadded base64url, its unused trailing bits zero), so a token has exactly one spelling.
  const given = Buffer.from(token.slice(dot + 1), 'utf8');
  const expected = Buffer.from(sign(part, key), 'utf8');
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

export interface LaunchClaims {
  playerId: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/** What the portal does: a launch token naming its player, valid until `exp`. */
export function signLaunchToken(claims: LaunchClaims, portalSecret: string): string {
  return signToken({ playerId: claims.playerId, exp: claims.exp }, portalSecret);
}

export type LaunchCheck = { ok: true; playerId: string } | { ok: false; reason: string };

export function checkLaunchToken(token: string, portalSecret: string, nowSeconds: number): LaunchCheck {
  const payload = verifyToken(token, portalSecret);
  if (!payload) return { ok: false, reason: 'the launch token is not signed by the portal' };
  const { playerId, exp } = payload;
  if (typeof playerId !== 'string' || !PORTAL_PLAYER_ID.test(playerId)) {
    return { ok: false, reason: 'the launch token names no valid player' };
  }
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp))
    return { ok: false, reason: 'the launch token has no expiry' };
  if (exp <= nowSeconds) return { ok: false, reason: 'the launch token has expired' };
  return { ok: true, playerId };
}

export interface SessionClaims {
  playerId: string;
  exp: number;
}

export function signSession(claims: SessionClaims, key: Buffer): string {
  return signToken({ p: claims.playerId, x: claims.exp }, key);
}

export function checkSession(token: string, key: Buffer, nowSeconds: number): SessionClaims | null {
  const payload = verifyToken(token, key);
  if (!payload) return null;
  const { p, x } = payload;
  if (typeof p !== 'string' || typeof x !== 'number' || x <= nowSeconds) return null;
  return { playerId: p, exp: x };
}

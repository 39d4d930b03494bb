import { describe, expect, it } from 'vitest';
import { checkLaunchToken, checkSession, signLaunchToken, signSession, signToken, verifyToken } from './tokens.ts';

const SECRET = 'a-portal-secret-of-at-least-32-chars!';
const RULES = { gameId: 'spincake', maxSeconds: 300 };
const ring = (key: Buffer, id = 'k1') => ({ signing: { id, key }, byId: new Map([[id, { key }]]) });
const session = (playerId: string, exp: number, iat = exp - 60) => ({ sessionId: 'sid-1', playerId, iat, exp });

describe('signed tokens', () => {
  it('round-trips and refuses any change', () => {
    const token = signToken({ a: 1 }, SECRET);
    expect(verifyToken(token, SECRET)).toEqual({ a: 1 });
    const [body, sig] = token.split('.') as [string, string];
    const otherBody = Buffer.from(JSON.stringify({ a: 2 })).toString('base64url');
    expect(verifyToken(`${otherBody}.${sig}`, SECRET)).toBeNull();
    expect(verifyToken(`${body}.${sig.slice(0, -2)}AA`, SECRET)).toBeNull();
    expect(verifyToken(token, `${SECRET}x`)).toBeNull();
    for (const bad of ['', '.', 'abc', `${body}.${sig}.x`, `${body}.`]) expect(verifyToken(bad, SECRET)).toBeNull();
  });

  it('accepts exactly one encoding of the signature: unpadded base64url, trailing bits zero', () => {
    const key = Buffer.alloc(32, 7);
    const sessionToken = signSession(session('demo-1', 10_000), ring(key));
    const launch = signLaunchToken({ playerId: 'p-1', iat: 9_900, exp: 10_000 }, SECRET);
    for (const [token, check] of [
      [sessionToken, (t: string) => checkSession(t, ring(key), 9_950) !== null],
      [launch, (t: string) => checkLaunchToken(t, SECRET, 9_950, RULES).ok],
    ] as const) {
      expect(check(token)).toBe(true);
      const sigAt = token.lastIndexOf('.');
      const [body, sig] = [token.slice(0, sigAt), token.slice(sigAt + 1)];
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const last = alphabet.indexOf(sig.at(-1)!);
      // 32 bytes in 43 characters: the last one carries 2 unused bits, which decoders ignore.
      const sameBytes = [1, 2, 3].map((bits) => `${sig.slice(0, -1)}${alphabet[last ^ bits]}`);
      for (const s of sameBytes) expect(Buffer.from(s, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
      const variants = [
        `${sig}=`,
        `${sig}==`,
        ...sameBytes,
        Buffer.from(sig, 'base64url').toString('base64'), // standard alphabet, padded
        Buffer.from(sig, 'base64url').toString('base64').replace(/=+$/, ''),
        ` ${sig}`,
        `${sig.slice(0, 20)}
${sig.slice(20)}`,
        `${sig}.`,
        `${sig}A`,
        sig.slice(0, -1),
        Buffer.from(sig, 'base64url').toString('hex'),
      ].filter((v) => v !== sig);
      expect(variants.length).toBeGreaterThanOrEqual(10);
      for (const variant of variants) expect(check(`${body}.${variant}`), JSON.stringify(variant)).toBe(false);
    }
  });

  it('checks launch tokens: player id and expiry', () => {
    const now = 1_700_000_000;
    const launch = (claims: { playerId: string; exp: number }, secret = SECRET) =>
      signLaunchToken({ ...claims, iat: now - 10, jti: 'jti-00000001' }, secret);
    expect(checkLaunchToken(launch({ playerId: 'p-1', exp: now + 10 }), SECRET, now, RULES)).toEqual({
      ok: true,
      playerId: 'p-1',
      jti: 'jti-00000001',
      exp: now + 10,
    });
    expect(checkLaunchToken(launch({ playerId: 'p-1', exp: now }), SECRET, now, RULES)).toEqual({
      ok: false,
      reason: 'the launch token has expired',
    });
    expect(checkLaunchToken(launch({ playerId: '../x', exp: now + 10 }), SECRET, now, RULES).ok).toBe(false);
    expect(checkLaunchToken(signToken({ playerId: 'p', exp: '9' }, SECRET), SECRET, now, RULES).ok).toBe(false);
    expect(checkLaunchToken(launch({ playerId: 'p', exp: now + 10 }, 'x'.repeat(32)), SECRET, now, RULES).ok).toBe(
      false,
    );
  });

  it('refuses a launch token for another game, without an id, issue time, or valid too long', () => {
    const now = 1_700_000_000;
    const claims = { playerId: 'p-1', iat: now, exp: now + 300, aud: 'spincake', jti: 'a-launch-id' };
    const reason = (payload: object) => {
      const check = checkLaunchToken(signToken(payload, SECRET), SECRET, now, RULES);
      return check.ok ? 'accepted' : check.reason;
    };
    expect(reason(claims)).toBe('accepted');
    expect(reason({ ...claims, aud: 'another-game' })).toMatch(/not for this game/);
    expect(reason({ ...claims, aud: undefined })).toMatch(/not for this game/);
    expect(
      checkLaunchToken(signToken({ ...claims, aud: 'bingo' }, SECRET), SECRET, now, { ...RULES, gameId: 'bingo' }).ok,
    ).toBe(true);
    expect(reason({ ...claims, jti: undefined })).toMatch(/no valid id/);
    expect(reason({ ...claims, jti: 'short' })).toMatch(/no valid id/);
    expect(reason({ ...claims, iat: undefined })).toMatch(/no issue time/);
    // The token the review found accepted: valid until 2100.
    expect(reason({ ...claims, exp: 4_102_444_800 })).toMatch(/at most 300 s/);
    expect(reason({ ...claims, exp: now + 301 })).toMatch(/at most 300 s/);
    expect(reason({ ...claims, iat: now + 3600, exp: now + 3700 })).toMatch(/issued in the future/);
    // By default, what the portal signs names this game and a fresh id.
    const first = checkLaunchToken(
      signLaunchToken({ playerId: 'p-1', exp: now + 60, iat: now }, SECRET),
      SECRET,
      now,
      RULES,
    );
    const second = checkLaunchToken(
      signLaunchToken({ playerId: 'p-1', exp: now + 60, iat: now }, SECRET),
      SECRET,
      now,
      RULES,
    );
    expect(first.ok && second.ok && first.jti !== second.jti).toBe(true);
  });

  it('checks session tokens against their key and expiry', () => {
    const key = Buffer.alloc(32, 1);
    const token = signSession(session('demo-1', 200), ring(key));
    expect(checkSession(token, ring(key), 199)).toEqual({ sessionId: 'sid-1', playerId: 'demo-1', iat: 140, exp: 200 });
    expect(checkSession(token, ring(key), 200)).toBeNull();
    expect(checkSession(token, ring(Buffer.alloc(32, 2)), 100)).toBeNull();
  });

  it('names its key: the first key signs, any listed key verifies, an unknown id or a swapped id fails', () => {
    const oldKey = { id: 'old', key: Buffer.alloc(32, 3) };
    const newKey = { id: 'new', key: Buffer.alloc(32, 4) };
    const before = { signing: oldKey, byId: new Map([['old', oldKey]]) };
    const rotated = {
      signing: newKey,
      byId: new Map([
        ['new', newKey],
        ['old', oldKey],
      ]),
    };
    const signedBefore = signSession(session('demo-1', 200), before);
    const signedAfter = signSession(session('demo-2', 200), rotated);
    expect(signedBefore.startsWith('old.')).toBe(true);
    expect(signedAfter.startsWith('new.')).toBe(true);
    // Rotation logs nobody out: a token of the old key still verifies while the key is listed.
    expect(checkSession(signedBefore, rotated, 100)?.playerId).toBe('demo-1');
    expect(checkSession(signedAfter, rotated, 100)?.playerId).toBe('demo-2');
    expect(checkSession(signedAfter, before, 100)).toBeNull();
    // Once the old key is gone, its tokens are refused.
    expect(checkSession(signedBefore, { signing: newKey, byId: new Map([['new', newKey]]) }, 100)).toBeNull();
    // The key id is signed: renaming it breaks the token even when both keys are listed.
    const sameKeyTwice = {
      signing: oldKey,
      byId: new Map([
        ['old', oldKey],
        ['alias', oldKey],
      ]),
    };
    expect(checkSession(`alias${signedBefore.slice(3)}`, sameKeyTwice, 100)).toBeNull();
  });
});

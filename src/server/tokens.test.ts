import { describe, expect, it } from 'vitest';
import { checkLaunchToken, checkSession, signLaunchToken, signSession, signToken, verifyToken } from './tokens.ts';

const SECRET = 'a-portal-secret-of-at-least-32-chars!';

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
    const session = signSession({ playerId: 'demo-1', exp: 10_000 }, key);
    const launch = signLaunchToken({ playerId: 'p-1', exp: 10_000 }, SECRET);
    for (const [token, check] of [
      [session, (t: string) => checkSession(t, key, 1) !== null],
      [launch, (t: string) => checkLaunchToken(t, SECRET, 1).ok],
    ] as const) {
      expect(check(token)).toBe(true);
      const [body, sig] = token.split('.') as [string, string];
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
    expect(checkLaunchToken(signLaunchToken({ playerId: 'p-1', exp: now + 10 }, SECRET), SECRET, now)).toEqual({
      ok: true,
      playerId: 'p-1',
    });
    expect(checkLaunchToken(signLaunchToken({ playerId: 'p-1', exp: now }, SECRET), SECRET, now)).toEqual({
      ok: false,
      reason: 'the launch token has expired',
    });
    expect(checkLaunchToken(signLaunchToken({ playerId: '../x', exp: now + 10 }, SECRET), SECRET, now).ok).toBe(false);
    expect(checkLaunchToken(signToken({ playerId: 'p', exp: '9' }, SECRET), SECRET, now).ok).toBe(false);
    expect(checkLaunchToken(signLaunchToken({ playerId: 'p', exp: now + 10 }, 'x'.repeat(32)), SECRET, now).ok).toBe(
      false,
    );
  });

  it('checks session tokens against their key and expiry', () => {
    const key = Buffer.alloc(32, 1);
    const token = signSession({ playerId: 'demo-1', exp: 200 }, key);
    expect(checkSession(token, key, 199)).toEqual({ playerId: 'demo-1', exp: 200 });
    expect(checkSession(token, key, 200)).toBeNull();
    expect(checkSession(token, Buffer.alloc(32, 2), 100)).toBeNull();
  });
});

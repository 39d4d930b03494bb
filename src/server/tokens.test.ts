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

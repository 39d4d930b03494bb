import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyringOf, singleKeyring } from './keyring.ts';
import {
  CLOCK_WINDOW_SECONDS,
  KEY_ID_HEADER,
  SIGNATURE_HEADER,
  signedHeaders,
  signMessage,
  TIMESTAMP_HEADER,
  verifyMessage,
} from './signature.ts';

const SECRET = 'a-wallet-secret-of-at-least-32-chars!';
const OLD = 'the-previous-wallet-secret-0123456789';
const NOW = Date.parse('2026-12-01T12:00:00Z');
const T = Math.floor(NOW / 1000);
const ring = singleKeyring(SECRET);

describe('wallet signatures (contract version 2)', () => {
  it('are lowercase hex HMAC-SHA256 of path, timestamp and body, each line apart', () => {
    const expected = createHmac('sha256', SECRET).update(`/fdj/wallet/bet\n${T}\n{"a":1}`).digest('hex');
    expect(signMessage(SECRET, '/fdj/wallet/bet', T, '{"a":1}')).toBe(expected);
    expect(signMessage(SECRET, '/fdj/wallet/bet', String(T), Buffer.from('{"a":1}'))).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    // RFC 4231 test case 2, the path and the timestamp making the first part of the message.
    expect(signMessage('Jefe', 'what do', 'ya want', 'for nothing?')).toBe(
      createHmac('sha256', 'Jefe').update('what do\nya want\nfor nothing?').digest('hex'),
    );
  });

  it('give the headers: the time in whole seconds, the signature, the signing key', () => {
    const keyring = keyringOf([
      { id: 'new', secret: SECRET },
      { id: 'old', secret: OLD },
    ]);
    const headers = signedHeaders(keyring, '/bet', '{}', NOW + 999);
    expect(headers).toEqual({
      [TIMESTAMP_HEADER]: String(T),
      [SIGNATURE_HEADER]: signMessage(SECRET, '/bet', T, '{}'),
      [KEY_ID_HEADER]: 'new',
    });
  });

  const received = (signature: unknown, timestamp: unknown = String(T), keyId?: unknown) =>
    ({ signature, timestamp, keyId }) as Parameters<typeof verifyMessage>[3];

  it('verify the exact path, timestamp and bytes under a key of the ring', () => {
    const body = '{"requestId":"r1","playerId":"p1"}';
    const signature = signMessage(SECRET, '/rollback', T, body);
    expect(verifyMessage(ring, '/rollback', body, received(signature), NOW)).toEqual({ ok: true });
    expect(verifyMessage(ring, '/rollback', Buffer.from(body), received(signature), NOW).ok).toBe(true);
    // A rollback's signature at /win, another body, another timestamp, another secret: refused.
    expect(verifyMessage(ring, '/win', body, received(signature), NOW)).toEqual({
      ok: false,
      reason: 'signature does not match',
    });
    expect(verifyMessage(ring, '/rollback', body.replace('r1', 'r2'), received(signature), NOW).ok).toBe(false);
    expect(verifyMessage(ring, '/rollback', body, received(signature, String(T - 1)), NOW).ok).toBe(false);
    expect(verifyMessage(singleKeyring(`${SECRET}x`), '/rollback', body, received(signature), NOW).ok).toBe(false);
    expect(verifyMessage(ring, '/rollback', `${body} `, received(signature), NOW).ok).toBe(false);
  });

  it(`refuse a timestamp more than ${CLOCK_WINDOW_SECONDS} s away, either way, or not in whole seconds`, () => {
    for (const offset of [-CLOCK_WINDOW_SECONDS, 0, CLOCK_WINDOW_SECONDS]) {
      const at = String(T + offset);
      expect(verifyMessage(ring, '/bet', '{}', received(signMessage(SECRET, '/bet', at, '{}'), at), NOW).ok).toBe(true);
    }
    for (const offset of [-CLOCK_WINDOW_SECONDS - 1, CLOCK_WINDOW_SECONDS + 1, -86_400]) {
      const at = String(T + offset);
      expect(verifyMessage(ring, '/bet', '{}', received(signMessage(SECRET, '/bet', at, '{}'), at), NOW)).toEqual({
        ok: false,
        reason: 'was signed more than 300 s away from this clock',
      });
    }
    for (const at of [undefined, '', `${T}.5`, `+${T}`, ` ${T}`, String(NOW), [String(T), String(T)]]) {
      const signature = signMessage(SECRET, '/bet', String(at), '{}');
      expect(verifyMessage(ring, '/bet', '{}', received(signature, at), NOW).ok, JSON.stringify(at)).toBe(false);
    }
  });

  it('let a key rotate: the first signs, any listed verifies, a named key alone is tried', () => {
    const both = keyringOf([
      { id: 'new', secret: SECRET },
      { id: 'old', secret: OLD },
    ]);
    const onlyOld = keyringOf([{ id: 'old', secret: OLD }]);
    const byOld = signMessage(OLD, '/bet', T, '{}');
    const byNew = signMessage(SECRET, '/bet', T, '{}');
    expect(verifyMessage(both, '/bet', '{}', received(byOld), NOW).ok).toBe(true);
    expect(verifyMessage(both, '/bet', '{}', received(byOld, String(T), 'old'), NOW).ok).toBe(true);
    expect(verifyMessage(both, '/bet', '{}', received(byNew, String(T), 'new'), NOW).ok).toBe(true);
    // Named for the wrong key, or for a key this side does not hold: refused.
    expect(verifyMessage(both, '/bet', '{}', received(byOld, String(T), 'new'), NOW).ok).toBe(false);
    expect(verifyMessage(onlyOld, '/bet', '{}', received(byNew, String(T), 'new'), NOW)).toEqual({
      ok: false,
      reason: 'is signed with a key this side does not hold',
    });
    expect(verifyMessage(onlyOld, '/bet', '{}', received(byNew), NOW).ok).toBe(false);
    expect(verifyMessage(both, '/bet', '{}', received(byOld, String(T), ['old', 'old']), NOW).ok).toBe(false);
  });

  it('verify one encoding only', () => {
    const signature = signMessage(SECRET, '/bet', T, '{}');
    const refused = [
      signature.toUpperCase(),
      Buffer.from(signature, 'hex').toString('base64'),
      signature.slice(0, 62),
      `${signature}00`,
      ` ${signature}`,
      '',
      [signature, signature],
    ];
    for (const given of refused) {
      expect(verifyMessage(ring, '/bet', '{}', received(given), NOW).ok, JSON.stringify(given)).toBe(false);
    }
    expect(verifyMessage(ring, '/bet', '{}', received(undefined), NOW)).toEqual({ ok: false, reason: 'is not signed' });
    expect(verifyMessage(ring, '/bet', '{}', received(null), NOW).ok).toBe(false);
  });
});

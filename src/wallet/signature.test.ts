import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from './signature.ts';

const SECRET = 'a-wallet-secret-of-at-least-32-chars!';

describe('wallet signatures', () => {
  it('are lowercase hex HMAC-SHA256 of the raw body (RFC 4231 test case 2)', () => {
    expect(signBody('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(signBody(SECRET, '{"a":1}')).toMatch(/^[0-9a-f]{64}$/);
    expect(signBody(SECRET, Buffer.from('{"a":1}'))).toBe(signBody(SECRET, '{"a":1}'));
  });

  it('agree with createHmac for keys shorter than, as long as and longer than the block, and any body', () => {
    const bodies = ['', '{"a":1}', 'é'.repeat(100), 'x'.repeat(4096)];
    for (const secret of ['k', 'k'.repeat(64), 'k'.repeat(65), 'é'.repeat(40), 'long'.repeat(50)]) {
      for (const body of bodies) {
        const expected = createHmac('sha256', secret).update(body).digest('hex');
        expect(signBody(secret, body)).toBe(expected);
        expect(signBody(secret, Buffer.from(body))).toBe(expected);
      }
    }
  });

  it('keep each secret’s key apart, past the keys kept (64)', () => {
    const bodies = Array.from({ length: 70 }, (_, i) => signBody(`${SECRET}-${i}`, 'body'));
    expect(new Set(bodies).size).toBe(70);
    expect(signBody('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(signBody(`${SECRET}-3`, 'body')).toBe(bodies[3]);
  });

  it('verify the exact bytes under the same secret, in one encoding only', () => {
    const body = '{"requestId":"r1","playerId":"p1"}';
    const signature = signBody(SECRET, body);
    expect(verifySignature(SECRET, body, signature)).toBe(true);
    expect(verifySignature(SECRET, Buffer.from(body), signature)).toBe(true);
    // Another body, another secret, a whitespace change: refused.
    expect(verifySignature(SECRET, body.replace('r1', 'r2'), signature)).toBe(false);
    expect(verifySignature(`${SECRET}x`, body, signature)).toBe(false);
    expect(verifySignature(SECRET, `${body} `, signature)).toBe(false);
    // Uppercase hex, base64, truncated, padded, missing, repeated header: refused.
    expect(verifySignature(SECRET, body, signature.toUpperCase())).toBe(false);
    expect(verifySignature(SECRET, body, Buffer.from(signature, 'hex').toString('base64'))).toBe(false);
    expect(verifySignature(SECRET, body, signature.slice(0, 62))).toBe(false);
    expect(verifySignature(SECRET, body, `${signature}00`)).toBe(false);
    expect(verifySignature(SECRET, body, ` ${signature}`)).toBe(false);
    expect(verifySignature(SECRET, body, undefined)).toBe(false);
    expect(verifySignature(SECRET, body, null)).toBe(false);
    expect(verifySignature(SECRET, body, '')).toBe(false);
    expect(verifySignature(SECRET, body, [signature, signature])).toBe(false);
  });
});

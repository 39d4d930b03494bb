import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { judgeSecret, MIN_SECRET_BITS } from './secretStrength.ts';

describe('a secret’s strength', () => {
  it('refuses what the review found accepted: 32 × "a", and other short, repetitive or known secrets', () => {
    for (const weak of [
      'a'.repeat(32),
      'ab'.repeat(32),
      'password'.repeat(5),
      'abcdefghijklmnopqrstuvwxyz0123456789',
      '0123456789'.repeat(4),
      'spincake-portal-secret',
      'correct-horse',
      randomBytes(8).toString('hex'),
    ]) {
      expect([weak, judgeSecret(weak).weakness]).not.toEqual([weak, null]);
    }
  });

  it('accepts what `openssl rand -base64 32` or 32 random bytes in hex make', () => {
    for (let i = 0; i < 50; i++) {
      for (const strong of [randomBytes(32).toString('base64'), randomBytes(32).toString('hex')]) {
        const verdict = judgeSecret(strong);
        expect([strong, verdict.weakness]).toEqual([strong, null]);
        expect(verdict.bits).toBeGreaterThanOrEqual(MIN_SECRET_BITS);
      }
    }
  });
});

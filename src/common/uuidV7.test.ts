import { describe, expect, it } from 'vitest';
import { UUID_V7, uuidV7, uuidV7Millis } from './uuidV7.ts';

describe('uuidV7', () => {
  it('makes distinct version-7 UUIDs', () => {
    // More than one pool of random bytes (256 ids a pool).
    const ids = new Set(Array.from({ length: 1000 }, () => uuidV7()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });

  it('starts with the time in milliseconds, so later ids sort later', () => {
    const at = Date.UTC(2026, 10, 30, 12, 0, 0, 123);
    const id = uuidV7(at);
    expect(uuidV7Millis(id)).toBe(at);
    const later = Array.from({ length: 50 }, (_, i) => uuidV7(at + 1 + i));
    expect([...later].sort()).toEqual(later);
    for (const next of later) expect(next > id).toBe(true);
  });

  it('keeps 74 random bits after the version and variant', () => {
    const zeros = uuidV7(0, (b) => b.fill(0));
    const ones = uuidV7(0, (b) => b.fill(0xff));
    expect(zeros).toBe('00000000-0000-7000-8000-000000000000');
    expect(ones).toBe('00000000-0000-7fff-bfff-ffffffffffff');
  });
});

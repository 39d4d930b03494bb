import { describe, expect, it } from 'vitest';
import { WIN_LEVELS, winLevel } from './winLevels.ts';

describe('winLevel', () => {
  it('ranks a lot by its multiple of the stake', () => {
    expect(winLevel(0, 100).rank).toBe(0);
    expect(winLevel(50, 100).rank).toBe(1);
    expect(winLevel(1_900, 100).rank).toBe(1);
    expect(winLevel(2_000, 100).rank).toBe(2);
    expect(winLevel(99_900, 100).rank).toBe(2);
    expect(winLevel(100_000, 100).rank).toBe(3);
    expect(winLevel(499_500, 500).rank).toBe(2);
    expect(winLevel(500_000, 500).rank).toBe(3);
  });

  it('says what each level looks and sounds like: a cue of its own, takeovers of rising length from 20 ×', () => {
    expect(
      WIN_LEVELS.map((l) => [l.tier, l.rank, l.cue, l.sprinkles, l.sprinkleSpreadS, l.takeoverS, l.countUpS]),
    ).toEqual([
      ['none', 0, 'lose', 0, 0, 0, 0],
      ['refund', 1, 'refund', 0, 0, 0, 0],
      ['small', 1, 'win-small', 40, 0.6, 0, 0.7],
      ['big', 2, 'win-big', 90, 0.8, 2.4, 1.2],
      ['mega', 3, 'win-mega', 140, 1.4, 3.6, 1.8],
      ['jackpot', 3, 'win-jackpot', 200, 2.4, 5.2, 2.6],
    ]);
  });
});

describe('winLevel tiers', () => {
  it('keeps the stake back quiet, and puts each of Article 3’s lots in its tier at every stake', () => {
    const tierOf = (multiple: number, stake: number) => winLevel(multiple * stake, stake).tier;
    for (const stake of [100, 200, 300, 500]) {
      expect(tierOf(0, stake)).toBe('none');
      expect(tierOf(1, stake)).toBe('refund');
      for (const m of [2, 7, 10]) expect(tierOf(m, stake)).toBe('small');
      for (const m of [20, 100]) expect(tierOf(m, stake)).toBe('big');
      expect(tierOf(1000, stake)).toBe('mega');
      expect(tierOf(20_000, stake)).toBe('jackpot');
    }
  });

  it('is never a takeover for a refund or a small win, and longer at each tier above', () => {
    const takeovers = WIN_LEVELS.map((l) => l.takeoverS);
    expect(takeovers.slice(0, 3)).toEqual([0, 0, 0]);
    expect(takeovers[3]).toBeGreaterThan(0);
    expect(takeovers[4]).toBeGreaterThan(takeovers[3]!);
    expect(takeovers[5]).toBeGreaterThan(takeovers[4]!);
  });
});

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

  it('says what each level looks and sounds like', () => {
    expect(WIN_LEVELS.map((l) => [l.rank, l.cue, l.sprinkles, l.sprinkleSpreadS])).toEqual([
      [0, 'lose', 0, 0],
      [1, 'win-small', 40, 0.6],
      [2, 'win-big', 90, 0.6],
      [3, 'win-big', 160, 1.6],
    ]);
  });
});

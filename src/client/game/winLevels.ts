import type { Cue } from './audioOut.ts';

/** How a result is celebrated, by the size of its lot against the stake. */
export interface WinLevel {
  /** 0 nothing won, 1 a small win … 3 the jackpot. */
  readonly rank: 0 | 1 | 2 | 3;
  /** The lowest win, in multiples of the stake, at this level (level 0 is no win at all). */
  readonly fromMultiple: number;
  /** Sprinkles that rain on the table (none when motion is reduced). */
  readonly sprinkles: number;
  /** Sprinkles start at random within this many seconds, so a jackpot rains longer. */
  readonly sprinkleSpreadS: number;
  readonly cue: Cue;
}

/** The one table of win levels: the reveal picks one, the scene draws it. */
export const WIN_LEVELS: readonly [WinLevel, WinLevel, WinLevel, WinLevel] = [
  { rank: 0, fromMultiple: 0, sprinkles: 0, sprinkleSpreadS: 0, cue: 'lose' },
  { rank: 1, fromMultiple: 0, sprinkles: 40, sprinkleSpreadS: 0.6, cue: 'win-small' },
  { rank: 2, fromMultiple: 20, sprinkles: 90, sprinkleSpreadS: 0.6, cue: 'win-big' },
  { rank: 3, fromMultiple: 1000, sprinkles: 160, sprinkleSpreadS: 1.6, cue: 'win-big' },
];

/** The level of a lot: none for no win, else the highest level the multiple reaches. */
export function winLevel(winCents: number, stakeCents: number): WinLevel {
  if (winCents === 0) return WIN_LEVELS[0];
  const multiple = winCents / stakeCents;
  for (let rank = WIN_LEVELS.length - 1; rank > 1; rank--) {
    if (multiple >= WIN_LEVELS[rank]!.fromMultiple) return WIN_LEVELS[rank]!;
  }
  return WIN_LEVELS[1];
}

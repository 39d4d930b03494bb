import type { Cue } from './audioOut.ts';

/**
 * The tiers of a result: nothing won, the stake back, a small, big or mega lot, the
 * jackpot. Each has its own cue; big and above also a takeover of the screen.
 */
export type WinTier = 'none' | 'refund' | 'small' | 'big' | 'mega' | 'jackpot';

/** How a result is celebrated, by the size of its lot against the stake. */
export interface WinLevel {
  readonly tier: WinTier;
  /** 0 nothing won, 1 a small win (or the stake back) … 3 a lot of 1 000 × the stake or more. */
  readonly rank: 0 | 1 | 2 | 3;
  /** The lowest win, in multiples of the stake, at this level (level 0 is no win at all). */
  readonly fromMultiple: number;
  /** Sprinkles that rain on the table (none when motion is reduced). */
  readonly sprinkles: number;
  /** Sprinkles start at random within this many seconds, so a jackpot rains longer. */
  readonly sprinkleSpreadS: number;
  readonly cue: Cue;
  /** How long the takeover holds the screen before the card (0: none); a tap ends it sooner. */
  readonly takeoverS: number;
  /** How long the card's total counts up (0: shown at once). */
  readonly countUpS: number;
}

/**
 * The one table of win levels: the reveal picks one, the scene, the card and the
 * takeover draw it. Article 3's lots are 1, 2, 7, 10, 20, 100, 1 000 and 20 000 times the
 * stake: the stake back is quiet, up to 10 × short, then each step longer and louder.
 */
export const WIN_LEVELS: readonly WinLevel[] = [
  { tier: 'none', rank: 0, fromMultiple: 0, sprinkles: 0, sprinkleSpreadS: 0, cue: 'lose', takeoverS: 0, countUpS: 0 },
  {
    tier: 'refund',
    rank: 1,
    fromMultiple: 1,
    sprinkles: 0,
    sprinkleSpreadS: 0,
    cue: 'refund',
    takeoverS: 0,
    countUpS: 0,
  },
  {
    tier: 'small',
    rank: 1,
    fromMultiple: 0,
    sprinkles: 40,
    sprinkleSpreadS: 0.6,
    cue: 'win-small',
    takeoverS: 0,
    countUpS: 0.7,
  },
  {
    tier: 'big',
    rank: 2,
    fromMultiple: 20,
    sprinkles: 90,
    sprinkleSpreadS: 0.8,
    cue: 'win-big',
    takeoverS: 2.4,
    countUpS: 1.2,
  },
  {
    tier: 'mega',
    rank: 3,
    fromMultiple: 1000,
    sprinkles: 140,
    sprinkleSpreadS: 1.4,
    cue: 'win-mega',
    takeoverS: 3.6,
    countUpS: 1.8,
  },
  {
    tier: 'jackpot',
    rank: 3,
    fromMultiple: 20_000,
    sprinkles: 200,
    sprinkleSpreadS: 2.4,
    cue: 'win-jackpot',
    takeoverS: 5.2,
    countUpS: 2.6,
  },
];

const byTier = (tier: WinTier) => WIN_LEVELS.find((l) => l.tier === tier)!;

/**
 * The level of a lot: none for no win, the refund for exactly the stake back, else the
 * highest tier whose multiple it reaches (small below 20 ×).
 */
export function winLevel(winCents: number, stakeCents: number): WinLevel {
  if (winCents === 0) return byTier('none');
  if (winCents === stakeCents) return byTier('refund');
  const multiple = winCents / stakeCents;
  for (const tier of ['jackpot', 'mega', 'big'] as const) {
    if (multiple >= byTier(tier).fromMultiple) return byTier(tier);
  }
  return byTier('small');
}

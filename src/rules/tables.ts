import type { Cents } from './money.ts';
import { stakeEuros, type StakeCents } from './stakes.ts';

/**
 * The regulation's tables, written once. Amounts are cents for a 1 € stake; the
 * 2, 3 and 5 € tables are these multiplied by the stake in euros (Articles 3, 4.6, 4.7).
 */

/** Units in every block (Article 2). */
export const BLOCK_SIZE = 1_000_000;

/** Article 4.6: JEU 1, bells under the cursors → win per euro staked. */
export const JEU1_TABLE: readonly { bells: number; perEuroCents: Cents }[] = [
  { bells: 4, perEuroCents: 1_000_000 },
  { bells: 3, perEuroCents: 10_000 },
  { bells: 2, perEuroCents: 500 },
  { bells: 1, perEuroCents: 50 },
];

/** Article 4.7: JEU 2, total points under the cursors → win per euro staked. */
export const JEU2_TABLE: readonly { minPoints: number; maxPoints: number; perEuroCents: Cents }[] = [
  { minPoints: 400, maxPoints: 599, perEuroCents: 50 },
  { minPoints: 600, maxPoints: 799, perEuroCents: 200 },
  { minPoints: 800, maxPoints: 999, perEuroCents: 500 },
  { minPoints: 1000, maxPoints: 1249, perEuroCents: 1_000 },
  { minPoints: 1250, maxPoints: 1499, perEuroCents: 2_000 },
  { minPoints: 1500, maxPoints: 1749, perEuroCents: 10_000 },
  { minPoints: 1750, maxPoints: 1999, perEuroCents: 100_000 },
  { minPoints: 2000, maxPoints: 2000, perEuroCents: 1_000_000 },
];

/** Article 3: the lots of one block of 1 € units; losing units fill the rest. */
export const BLOCK_LOTS_PER_EURO: readonly { count: number; lotPerEuroCents: Cents }[] = [
  { count: 1, lotPerEuroCents: 2_000_000 },
  { count: 3, lotPerEuroCents: 100_000 },
  { count: 40, lotPerEuroCents: 10_000 },
  { count: 250, lotPerEuroCents: 2_000 },
  { count: 6_675, lotPerEuroCents: 1_000 },
  { count: 50_000, lotPerEuroCents: 700 },
  { count: 57_100, lotPerEuroCents: 200 },
  { count: 137_050, lotPerEuroCents: 100 },
];

export const WINNING_UNITS_PER_BLOCK = BLOCK_LOTS_PER_EURO.reduce((n, row) => n + row.count, 0);
export const LOSING_UNITS_PER_BLOCK = BLOCK_SIZE - WINNING_UNITS_PER_BLOCK;

export interface BlockLot {
  count: number;
  lotCents: Cents;
}

/** The lot table of one block at a stake, losing units (lot 0) last. */
export function blockLotTable(stake: StakeCents): BlockLot[] {
  const euros = stakeEuros(stake);
  return [
    ...BLOCK_LOTS_PER_EURO.map((row) => ({ count: row.count, lotCents: row.lotPerEuroCents * euros })),
    { count: LOSING_UNITS_PER_BLOCK, lotCents: 0 },
  ];
}

/** Total paid out by one block, in cents. */
export function blockPayoutCents(stake: StakeCents): Cents {
  return blockLotTable(stake).reduce((sum, row) => sum + row.count * row.lotCents, 0);
}

/** Payout rate of a block in basis points (7000 = 70 %): exact integer arithmetic. */
export function blockPayoutBasisPoints(stake: StakeCents): number {
  return (blockPayoutCents(stake) * 10_000) / (BLOCK_SIZE * stake);
}

/**
 * The (JEU 1, JEU 2) pairs that add up to a lot of the table (rules.md §5), per euro.
 * `bells` and the points range are what the cursors must show for that pair.
 */
export interface LotPair {
  key: PairKey;
  lotPerEuroCents: Cents;
  jeu1PerEuroCents: Cents;
  jeu2PerEuroCents: Cents;
  bells: number;
  minPoints: number;
  maxPoints: number;
}

export type PairKey =
  'x20000' | 'x1000' | 'x100-bells' | 'x100-points' | 'x20' | 'x10-points' | 'x10-bells' | 'x7' | 'x2' | 'x1' | 'lose';

export const LOT_PAIRS: readonly LotPair[] = [
  {
    key: 'x20000',
    lotPerEuroCents: 2_000_000,
    jeu1PerEuroCents: 1_000_000,
    jeu2PerEuroCents: 1_000_000,
    bells: 4,
    minPoints: 2000,
    maxPoints: 2000,
  },
  {
    key: 'x1000',
    lotPerEuroCents: 100_000,
    jeu1PerEuroCents: 0,
    jeu2PerEuroCents: 100_000,
    bells: 0,
    minPoints: 1750,
    maxPoints: 1999,
  },
  {
    key: 'x100-bells',
    lotPerEuroCents: 10_000,
    jeu1PerEuroCents: 10_000,
    jeu2PerEuroCents: 0,
    bells: 3,
    minPoints: 0,
    maxPoints: 399,
  },
  {
    key: 'x100-points',
    lotPerEuroCents: 10_000,
    jeu1PerEuroCents: 0,
    jeu2PerEuroCents: 10_000,
    bells: 0,
    minPoints: 1500,
    maxPoints: 1749,
  },
  {
    key: 'x20',
    lotPerEuroCents: 2_000,
    jeu1PerEuroCents: 0,
    jeu2PerEuroCents: 2_000,
    bells: 0,
    minPoints: 1250,
    maxPoints: 1499,
  },
  {
    key: 'x10-points',
    lotPerEuroCents: 1_000,
    jeu1PerEuroCents: 0,
    jeu2PerEuroCents: 1_000,
    bells: 0,
    minPoints: 1000,
    maxPoints: 1249,
  },
  {
    key: 'x10-bells',
    lotPerEuroCents: 1_000,
    jeu1PerEuroCents: 500,
    jeu2PerEuroCents: 500,
    bells: 2,
    minPoints: 800,
    maxPoints: 999,
  },
  {
    key: 'x7',
    lotPerEuroCents: 700,
    jeu1PerEuroCents: 500,
    jeu2PerEuroCents: 200,
    bells: 2,
    minPoints: 600,
    maxPoints: 799,
  },
  {
    key: 'x2',
    lotPerEuroCents: 200,
    jeu1PerEuroCents: 0,
    jeu2PerEuroCents: 200,
    bells: 0,
    minPoints: 600,
    maxPoints: 799,
  },
  {
    key: 'x1',
    lotPerEuroCents: 100,
    jeu1PerEuroCents: 50,
    jeu2PerEuroCents: 50,
    bells: 1,
    minPoints: 400,
    maxPoints: 599,
  },
  { key: 'lose', lotPerEuroCents: 0, jeu1PerEuroCents: 0, jeu2PerEuroCents: 0, bells: 0, minPoints: 0, maxPoints: 399 },
];

export function jeu1WinCents(bells: number, stake: StakeCents): Cents {
  const row = JEU1_TABLE.find((r) => r.bells === bells);
  return row ? row.perEuroCents * stakeEuros(stake) : 0;
}

export function jeu2WinCents(points: number, stake: StakeCents): Cents {
  const row = JEU2_TABLE.find((r) => points >= r.minPoints && points <= r.maxPoints);
  return row ? row.perEuroCents * stakeEuros(stake) : 0;
}

/** The pair a (bells, points) outcome belongs to, or undefined if no block may hold it. */
export function pairOf(bells: number, points: number): LotPair | undefined {
  return LOT_PAIRS.find((p) => p.bells === bells && points >= p.minPoints && points <= p.maxPoints);
}

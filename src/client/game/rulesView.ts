import type { Cents } from '../../rules/money.ts';
import { STAKES_CENTS, stakeEuros, type StakeCents } from '../../rules/stakes.ts';
import {
  BLOCK_LOTS_PER_EURO,
  BLOCK_SIZE,
  blockPayoutBasisPoints,
  JEU1_TABLE,
  JEU2_TABLE,
  LOT_PAIRS,
  WINNING_UNITS_PER_BLOCK,
} from '../../rules/tables.ts';

/**
 * The regulation's tables as the rules panel shows them (Articles 3, 4.6, 4.7), every
 * figure computed from src/rules: nothing here is typed twice.
 */

export interface LotRow {
  count: number;
  lotCents: Cents;
  totalCents: Cents;
}

/** Article 3.x: one stake's block, as the regulation lays it out. */
export interface BlockTable {
  stake: StakeCents;
  rows: LotRow[];
  /** « 251 119 lots formant un total de 700 000 € ». */
  winningUnits: number;
  totalCents: Cents;
  /** The lots reached only by adding a JEU 1 win and a JEU 2 win in one unit. */
  addedOnlyCents: Cents[];
}

/** One line of JEU 1 or JEU 2: what the player finds, and the win at each stake. */
export interface GameRow {
  bells?: number;
  minPoints?: number;
  maxPoints?: number;
  winCents: Cents[];
}

export interface RulesView {
  stakes: readonly StakeCents[];
  blocks: BlockTable[];
  jeu1: GameRow[];
  jeu2: GameRow[];
  blockSize: number;
  winningUnits: number;
  /** Odds of winning, « 1 sur N », N in hundredths (398 for 3,98). */
  oneInHundredths: number;
  /** Payout rate of every block, in basis points (7000 = 70 %). */
  payoutBasisPoints: number;
}

/** Lots per euro that no single game's win can make: every pair behind them wins in both games. */
export function addedOnlyLotsPerEuro(): Cents[] {
  const lots = [...new Set(LOT_PAIRS.filter((p) => p.lotPerEuroCents > 0).map((p) => p.lotPerEuroCents))];
  return lots.filter((lot) =>
    LOT_PAIRS.filter((p) => p.lotPerEuroCents === lot).every((p) => p.jeu1PerEuroCents > 0 && p.jeu2PerEuroCents > 0),
  );
}

export function blockTable(stake: StakeCents): BlockTable {
  const euros = stakeEuros(stake);
  const rows = BLOCK_LOTS_PER_EURO.map((r) => ({
    count: r.count,
    lotCents: r.lotPerEuroCents * euros,
    totalCents: r.count * r.lotPerEuroCents * euros,
  }));
  return {
    stake,
    rows,
    winningUnits: rows.reduce((n, r) => n + r.count, 0),
    totalCents: rows.reduce((sum, r) => sum + r.totalCents, 0),
    addedOnlyCents: addedOnlyLotsPerEuro().map((lot) => lot * euros),
  };
}

export function rulesView(): RulesView {
  const payouts = new Set(STAKES_CENTS.map((s) => blockPayoutBasisPoints(s)));
  if (payouts.size !== 1) throw new Error('every stake’s block pays back the same rate');
  return {
    stakes: STAKES_CENTS,
    blocks: STAKES_CENTS.map(blockTable),
    jeu1: JEU1_TABLE.map((r) => ({
      bells: r.bells,
      winCents: STAKES_CENTS.map((s) => r.perEuroCents * stakeEuros(s)),
    })),
    jeu2: JEU2_TABLE.map((r) => ({
      minPoints: r.minPoints,
      maxPoints: r.maxPoints,
      winCents: STAKES_CENTS.map((s) => r.perEuroCents * stakeEuros(s)),
    })),
    blockSize: BLOCK_SIZE,
    winningUnits: WINNING_UNITS_PER_BLOCK,
    oneInHundredths: Math.round((BLOCK_SIZE * 100) / WINNING_UNITS_PER_BLOCK),
    payoutBasisPoints: [...payouts][0]!,
  };
}

import { describe, expect, it } from 'vitest';
import { STAKES_CENTS, isStakeCents } from './stakes.ts';
import {
  BLOCK_SIZE,
  LOSING_UNITS_PER_BLOCK,
  LOT_PAIRS,
  WINNING_UNITS_PER_BLOCK,
  blockLotTable,
  blockPayoutBasisPoints,
  blockPayoutCents,
  jeu1WinCents,
  jeu2WinCents,
  pairOf,
} from './tables.ts';

/** Article 3 as printed, in euros, per stake: [count, 1 €, 2 €, 3 €, 5 €]. */
const ARTICLE_3: [number, number, number, number, number][] = [
  [1, 20_000, 40_000, 60_000, 100_000],
  [3, 1_000, 2_000, 3_000, 5_000],
  [40, 100, 200, 300, 500],
  [250, 20, 40, 60, 100],
  [6_675, 10, 20, 30, 50],
  [50_000, 7, 14, 21, 35],
  [57_100, 2, 4, 6, 10],
  [137_050, 1, 2, 3, 5],
];
const ARTICLE_3_TOTALS_EUROS = [700_000, 1_400_000, 2_100_000, 3_500_000];

/** Article 4.6.1 as printed, euros per stake. */
const ARTICLE_4_6: [number, number, number, number, number][] = [
  [4, 10_000, 20_000, 30_000, 50_000],
  [3, 100, 200, 300, 500],
  [2, 5, 10, 15, 25],
  [1, 0.5, 1, 1.5, 2.5],
];
/** Article 4.7.1 as printed: [min, max, 1 €, 2 €, 3 €, 5 €]. */
const ARTICLE_4_7: [number, number, number, number, number, number][] = [
  [400, 599, 0.5, 1, 1.5, 2.5],
  [600, 799, 2, 4, 6, 10],
  [800, 999, 5, 10, 15, 25],
  [1000, 1249, 10, 20, 30, 50],
  [1250, 1499, 20, 40, 60, 100],
  [1500, 1749, 100, 200, 300, 500],
  [1750, 1999, 1_000, 2_000, 3_000, 5_000],
  [2000, 2000, 10_000, 20_000, 30_000, 50_000],
];
const euroToCents = (euros: number) => Math.round(euros * 100);

describe('stakes', () => {
  it('are 1, 2, 3 and 5 €', () => {
    expect([...STAKES_CENTS]).toEqual([100, 200, 300, 500]);
    for (const bad of [0, -100, 400, 150, 1.5, '100', null, undefined]) expect(isStakeCents(bad)).toBe(false);
  });
});

describe('Article 3 block lot tables', () => {
  STAKES_CENTS.forEach((stake, col) => {
    it(`match the regulation for ${stake / 100} €`, () => {
      const table = blockLotTable(stake);
      ARTICLE_3.forEach((row, i) => {
        expect(table[i]).toEqual({ count: row[0], lotCents: euroToCents(row[col + 1]!) });
      });
      expect(table.at(-1)).toEqual({ count: 748_881, lotCents: 0 });
      expect(table.reduce((n, r) => n + r.count, 0)).toBe(BLOCK_SIZE);
      expect(blockPayoutCents(stake)).toBe(euroToCents(ARTICLE_3_TOTALS_EUROS[col]!));
      expect(blockPayoutBasisPoints(stake)).toBe(7000);
    });
  });

  it('hold 251 119 winning units: odds of 1 in 3.98', () => {
    expect(WINNING_UNITS_PER_BLOCK).toBe(251_119);
    expect(LOSING_UNITS_PER_BLOCK).toBe(748_881);
    expect((BLOCK_SIZE / WINNING_UNITS_PER_BLOCK).toFixed(2)).toBe('3.98');
  });
});

describe('Article 4.6 JEU 1', () => {
  STAKES_CENTS.forEach((stake, col) => {
    it(`pays the table for ${stake / 100} €`, () => {
      for (const row of ARTICLE_4_6) expect(jeu1WinCents(row[0], stake)).toBe(euroToCents(row[col + 1]!));
      expect(jeu1WinCents(0, stake)).toBe(0);
    });
  });
});

describe('Article 4.7 JEU 2', () => {
  STAKES_CENTS.forEach((stake, col) => {
    it(`pays the table for ${stake / 100} € at every boundary`, () => {
      for (const row of ARTICLE_4_7) {
        const win = euroToCents(row[col + 2]!);
        expect(jeu2WinCents(row[0], stake)).toBe(win);
        expect(jeu2WinCents(row[1], stake)).toBe(win);
      }
      expect(jeu2WinCents(0, stake)).toBe(0);
      expect(jeu2WinCents(350, stake)).toBe(0);
      expect(jeu2WinCents(399, stake)).toBe(0);
    });
  });

  it('changes band exactly at 400, 600, 800, 1000, 1250, 1500, 1750, 2000', () => {
    const boundaries = [400, 600, 800, 1000, 1250, 1500, 1750, 2000];
    for (const b of boundaries) {
      expect(jeu2WinCents(b, 100)).toBeGreaterThan(jeu2WinCents(b - 1, 100));
    }
  });
});

describe('rules.md §5 pairs', () => {
  it('add up to a lot of the table, and the game tables give each part', () => {
    const lots = new Set(blockLotTable(100).map((r) => r.lotCents));
    for (const pair of LOT_PAIRS) {
      expect(pair.jeu1PerEuroCents + pair.jeu2PerEuroCents).toBe(pair.lotPerEuroCents);
      expect(lots.has(pair.lotPerEuroCents)).toBe(true);
      for (const points of [pair.minPoints, pair.maxPoints]) {
        expect(jeu1WinCents(pair.bells, 100)).toBe(pair.jeu1PerEuroCents);
        expect(jeu2WinCents(points, 100)).toBe(pair.jeu2PerEuroCents);
      }
    }
  });

  it('are the only (bells, points) outcomes that a block may hold', () => {
    // Every reachable outcome: 0–4 bells, 0–2000 points in steps of 50.
    for (let bells = 0; bells <= 4; bells++) {
      for (let points = 0; points <= 2000; points += 50) {
        const win = jeu1WinCents(bells, 100) + jeu2WinCents(points, 100);
        const onTable = blockLotTable(100).some((r) => r.lotCents === win);
        const pair = pairOf(bells, points);
        if (pair) {
          expect(pair.lotPerEuroCents).toBe(win);
          expect(onTable).toBe(true);
        }
      }
    }
    expect(pairOf(1, 300)).toBeUndefined(); // would win 0,50 €: not a lot of the table
    expect(pairOf(4, 1950)).toBeUndefined();
    expect(pairOf(0, 2000)).toBeUndefined();
    expect(pairOf(3, 400)).toBeUndefined();
  });
});

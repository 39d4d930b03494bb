import { BLOCK_LOTS_PER_EURO, LOSING_UNITS_PER_BLOCK, type PairKey } from '../rules/index.ts';
import { PAIR_CODES, PAIRS_BY_CODE } from './codes.ts';

/**
 * How a block shares the two lots that two different pairs can give (rules.md §5–6).
 * This is the generator's documented choice (docs/block-format.md): the 100× lots
 * half by three bells, half by points; the 10× lots roughly half each, the odd unit
 * going to points (the more common way to reach 10×).
 */
export const PAIR_SPLIT: Readonly<Partial<Record<PairKey, number>>> = {
  'x100-bells': 20,
  'x100-points': 20,
  'x10-points': 3_338,
  'x10-bells': 3_337,
};

/** Units of each pair in one full block, indexed by pair code. Same for every stake. */
export function blockPairCounts(): number[] {
  return PAIRS_BY_CODE.map((pair) => {
    if (pair.lotPerEuroCents === 0) return LOSING_UNITS_PER_BLOCK;
    const split = PAIR_SPLIT[pair.key];
    if (split !== undefined) return split;
    const row = BLOCK_LOTS_PER_EURO.find((r) => r.lotPerEuroCents === pair.lotPerEuroCents);
    if (!row) throw new Error(`pair ${pair.key} gives a lot that Article 3 lacks`);
    return row.count;
  });
}

/** Guard: the split and the single-pair lots add up to Article 3, lot by lot. */
function checkSplit(): void {
  const counts = blockPairCounts();
  for (const row of BLOCK_LOTS_PER_EURO) {
    const sum = PAIRS_BY_CODE.reduce(
      (n, p, code) => (p.lotPerEuroCents === row.lotPerEuroCents ? n + counts[code]! : n),
      0,
    );
    if (sum !== row.count)
      throw new Error(`PAIR_SPLIT gives ${sum} lots of ${row.lotPerEuroCents} per euro, Article 3 says ${row.count}`);
  }
  for (const key of Object.keys(PAIR_SPLIT)) {
    if (!PAIR_CODES.includes(key as PairKey)) throw new Error(`PAIR_SPLIT names unknown pair ${key}`);
  }
}
checkSplit();

import { LOT_PAIRS, SYMBOLS, type LotPair, type PairKey, type SymbolName } from '../rules/index.ts';

/**
 * The block file's codebooks. They are part of the file format (version 1), so they
 * are fixed here rather than following the order of the rules' lists; a test checks
 * that they name exactly the rules' symbols and pairs.
 */
export const SYMBOL_CODES: readonly SymbolName[] = ['bell', 'cupcake', 'macaron', 'donut', 'cherry', 'croissant'];
export const BELL_CODE = 0;

export const PAIR_CODES: readonly PairKey[] = [
  'lose',
  'x1',
  'x2',
  'x7',
  'x10-bells',
  'x10-points',
  'x20',
  'x100-bells',
  'x100-points',
  'x1000',
  'x20000',
];

/** Segment points are stored as points / POINT_STEP: 0–10. */
export const POINT_INDEX_MAX = 10;
export const POINTS_PER_INDEX = 50;

function lotPair(key: PairKey): LotPair {
  const pair = LOT_PAIRS.find((p) => p.key === key);
  if (!pair) throw new Error(`src/rules has no pair ${key}`);
  return pair;
}

/** LOT_PAIRS in pair-code order. */
export const PAIRS_BY_CODE: readonly LotPair[] = PAIR_CODES.map(lotPair);

export function pairCode(key: PairKey): number {
  const code = PAIR_CODES.indexOf(key);
  if (code < 0) throw new RangeError(`unknown pair ${key}`);
  return code;
}

if (SYMBOL_CODES.length !== SYMBOLS.length || SYMBOLS.some((s) => !SYMBOL_CODES.includes(s))) {
  throw new Error('SYMBOL_CODES must name exactly the symbols of src/rules');
}
if (SYMBOL_CODES[BELL_CODE] !== 'bell') throw new Error('symbol code 0 must be the bell');
if (PAIR_CODES.length !== LOT_PAIRS.length) throw new Error('PAIR_CODES must name exactly the pairs of src/rules');

import {
  BLOCK_SIZE,
  SEGMENTS_PER_WHEEL,
  WHEELS_PER_UNIT,
  blockLotTable,
  blockPayoutCents,
  type PairKey,
} from '../rules/index.ts';
import { bodySha256Hex, type Block } from './block.ts';
import { BELL_CODE, PAIR_CODES, POINT_INDEX_MAX, POINTS_PER_INDEX, SYMBOL_CODES } from './codes.ts';
import { POINT_SUMS, STOPS_OFFSET, UNIT_BYTES, outcomeTables } from './record.ts';
import { blockPairCounts } from './split.ts';

export interface AuditProblem {
  /** Position of the unit in the sale order, or -1 for the block as a whole. */
  position: number;
  message: string;
}

export interface AuditReport {
  ok: boolean;
  /** The first MAX_LISTED_PROBLEMS unit problems in sale order, then every block-level one. */
  problems: AuditProblem[];
  /** Every problem found, listed or not. */
  problemCount: number;
  /** Units per lot (cents, what the cursors show), 0 for losing units. */
  lotCounts: Map<number, number>;
  /** Units per pair (what the cursors show); units showing no valid pair are not counted here. */
  pairCounts: Map<PairKey, number>;
  /** Sum of every unit's lot, cents. */
  payoutCents: number;
  /** True when the block holds BLOCK_SIZE units, so the Article 3 table and the 70 % payout were checked. */
  fullBlock: boolean;
  /** Face variety: segments off the cursor that show a bell, and that show 500 points. */
  offCursorBells: number;
  offCursorTopPoints: number;
}

export const MAX_LISTED_PROBLEMS = 100;

// Module-local copies: imported bindings can compile to getters, too slow for the hot loop.
const SYMBOL_COUNT = SYMBOL_CODES.length;
const WHEELS = WHEELS_PER_UNIT;
const SEGMENTS = SEGMENTS_PER_WHEEL;
const BELL = BELL_CODE;
const TOP_INDEX = POINT_INDEX_MAX;
const SUMS = POINT_SUMS;
const RECORD = UNIT_BYTES;
const STOPS = STOPS_OFFSET;
const PAIR_COUNT = PAIR_CODES.length;

const byteTable = (test: (symbol: number, index: number) => boolean) =>
  Uint8Array.from({ length: 256 }, (_, byte) => (test(byte >> 4, byte & 15) ? 1 : 0));
const MALFORMED_BYTE = byteTable((symbol, index) => symbol >= SYMBOL_COUNT || index > TOP_INDEX);
const IS_BELL = byteTable((symbol) => symbol === BELL);
const IS_TOP = byteTable((_symbol, index) => index === TOP_INDEX);

const declared = (word: number) => word >> 12;

/** Why a unit's record is malformed (slow path: called only for bad units). */
function malformedUnit(body: Uint8Array, offset: number): string {
  const word = body[offset + STOPS]! | (body[offset + STOPS + 1]! << 8);
  for (let w = 0; w < WHEELS; w++) {
    const base = offset + w * SEGMENTS;
    const stop = (word >> (3 * w)) & 7;
    if (stop >= SEGMENTS) return `wheel ${w + 1} has stop ${stop}`;
    for (let s = 0; s < SEGMENTS; s++) {
      const byte = body[base + s]!;
      if (MALFORMED_BYTE[byte])
        return `wheel ${w + 1} segment ${s} has the malformed byte 0x${byte.toString(16).padStart(2, '0')}`;
    }
    const symbols = new Set(body.subarray(base, base + SEGMENTS).map((b) => b >> 4));
    if (symbols.size === 1) return `wheel ${w + 1} shows six identical symbols`;
  }
  return `declares the unknown pair code ${declared(word)}`;
}

/**
 * Re-checks a block independently of how it was made: the checksum, every unit's shape
 * and face rules, every unit's outcome evaluated through src/rules' tables against the
 * pair the block declares, and for a full block the exact Article 3 lot table, the
 * generator's pair split and the 70 % payout.
 */
export function auditBlock(block: Block): AuditReport {
  const { stakeCents, count } = block.header;
  const body = block.body;
  const tables = outcomeTables(stakeCents);
  const unitProblems: AuditProblem[] = [];
  const blockProblems: AuditProblem[] = [];
  let problemCount = 0;
  const problem = (position: number, message: string) => {
    problemCount++;
    if (position < 0) blockProblems.push({ position, message });
    else if (unitProblems.length < MAX_LISTED_PROBLEMS) unitProblems.push({ position, message });
  };

  if (body.length !== count * UNIT_BYTES)
    problem(-1, `body holds ${body.length} bytes, ${count} units need ${count * UNIT_BYTES}`);
  const actualSha = bodySha256Hex(block);
  if (actualSha !== block.header.bodySha256Hex) {
    problem(-1, `checksum mismatch: the body's SHA-256 is ${actualSha}, the header says ${block.header.bodySha256Hex}`);
  }

  const pairTally = new Int32Array(PAIR_CODES.length);
  const strayLots = new Map<number, number>();
  let payoutCents = 0;
  let offCursorBells = 0;
  let offCursorTopPoints = 0;
  const units = Math.min(count, Math.floor(body.length / UNIT_BYTES));

  for (let i = 0; i < units; i++) {
    const offset = i * RECORD;
    const word = body[offset + STOPS]! | (body[offset + STOPS + 1]! << 8);
    let bells = 0;
    let pointSum = 0;
    let bad = declared(word) >= PAIR_COUNT ? 1 : 0;
    // Branch-free over the 24 segments; the rare malformed unit is described apart.
    for (let w = 0; w < WHEELS; w++) {
      const base = offset + w * SEGMENTS;
      const stop = (word >> (3 * w)) & 7;
      const first = body[base]! >> 4;
      let differ = 0;
      for (let s = 0; s < SEGMENTS; s++) {
        const byte = body[base + s]!;
        bad |= MALFORMED_BYTE[byte]!;
        differ |= (byte >> 4) ^ first;
        offCursorBells += IS_BELL[byte]!;
        offCursorTopPoints += IS_TOP[byte]!;
      }
      if (differ === 0 || stop >= SEGMENTS) bad = 1;
      const cursor = body[base + (stop < SEGMENTS ? stop : 0)]!;
      offCursorBells -= IS_BELL[cursor]!;
      offCursorTopPoints -= IS_TOP[cursor]!;
      bells += IS_BELL[cursor]!;
      pointSum += cursor & 15;
    }
    if (bad) {
      problem(i, malformedUnit(body, offset));
      continue;
    }
    const outcome = bells * SUMS + pointSum;
    const lot = tables.lotCents[outcome]!;
    payoutCents += lot;
    const shown = tables.pairCode[outcome]!;
    if (shown < 0) {
      strayLots.set(lot, (strayLots.get(lot) ?? 0) + 1);
      problem(
        i,
        `cursors show ${bells} bell(s) and ${pointSum * POINTS_PER_INDEX} points: a lot of ${lot} cents that no block holds`,
      );
      continue;
    }
    pairTally[shown]!++;
    if (shown !== declared(word)) {
      problem(
        i,
        `the block declares pair ${PAIR_CODES[declared(word)]} but the cursors show ${PAIR_CODES[shown]} (${lot} cents)`,
      );
    }
  }

  const pairCounts = new Map<PairKey, number>();
  const lotCounts = new Map<number, number>();
  for (const row of blockLotTable(stakeCents)) lotCounts.set(row.lotCents, 0);
  PAIR_CODES.forEach((key, code) => {
    pairCounts.set(key, pairTally[code]!);
    const lot = outcomeLotOfPair(code, stakeCents);
    lotCounts.set(lot, (lotCounts.get(lot) ?? 0) + pairTally[code]!);
  });
  for (const [lot, n] of strayLots) lotCounts.set(lot, (lotCounts.get(lot) ?? 0) + n);

  const fullBlock = count === BLOCK_SIZE;
  if (fullBlock) {
    for (const row of blockLotTable(stakeCents)) {
      const found = lotCounts.get(row.lotCents) ?? 0;
      if (found !== row.count) problem(-1, `lot of ${row.lotCents} cents: ${found} units, Article 3 says ${row.count}`);
    }
    const expectedPairs = blockPairCounts();
    PAIR_CODES.forEach((key, code) => {
      if (pairTally[code] !== expectedPairs[code]) {
        problem(-1, `pair ${key}: ${pairTally[code]} units, the generator's split says ${expectedPairs[code]}`);
      }
    });
    const expectedPayout = blockPayoutCents(stakeCents);
    if (payoutCents !== expectedPayout || payoutCents * 10_000 !== 7_000 * count * stakeCents) {
      problem(-1, `payout ${payoutCents} cents, Article 3 says ${expectedPayout} (70 % of sales)`);
    }
  }
  return {
    ok: problemCount === 0,
    problems: [...unitProblems, ...blockProblems],
    problemCount,
    lotCounts,
    pairCounts,
    payoutCents,
    fullBlock,
    offCursorBells,
    offCursorTopPoints,
  };
}

/** The lot (cents) that a pair gives at a stake, read from the outcome tables built from src/rules. */
function outcomeLotOfPair(code: number, stake: Parameters<typeof outcomeTables>[0]): number {
  const tables = outcomeTables(stake);
  const index = tables.pairCode.indexOf(code);
  return tables.lotCents[index]!;
}

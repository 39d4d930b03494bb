import { describe, expect, it } from 'vitest';
import {
  BLOCK_SIZE,
  blockLotTable,
  blockPayoutCents,
  evaluate,
  pairOf,
  unitProblems,
  type Unit,
} from '../rules/index.ts';
import { assembleBlock } from './block.ts';
import { PAIR_CODES } from './codes.ts';
import { PAIR_SPLIT, UNIT_BYTES, auditBlock, generateBlock } from './index.ts';

/** The lot pair that a unit's cursors show (undefined when no block may hold it). */
const unitPair = (unit: Unit) => {
  const { bells, points } = evaluate(unit);
  return pairOf(bells, points);
};

/** One real block of 1,000,000 units, generated and audited once for the whole file. */
describe('a full block', () => {
  const seedHex = 'c0ffee';
  const block = generateBlock({ stakeCents: 500, seedHex });
  const report = auditBlock(block);

  it('passes the audit with exactly the Article 3 lots and the 70 % payout', () => {
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.fullBlock).toBe(true);
    expect(block.header.count).toBe(BLOCK_SIZE);
    for (const row of blockLotTable(500)) expect(report.lotCounts.get(row.lotCents)).toBe(row.count);
    expect(report.lotCounts.size).toBe(blockLotTable(500).length);
    expect(report.payoutCents).toBe(blockPayoutCents(500));
    expect(report.payoutCents * 10).toBe(7 * BLOCK_SIZE * 500);
    for (const [key, n] of Object.entries(PAIR_SPLIT))
      expect(report.pairCounts.get(key as (typeof PAIR_CODES)[number])).toBe(n);
  });

  it('shows bells and 500-point segments off the cursors', () => {
    expect(report.offCursorBells).toBeGreaterThan(BLOCK_SIZE);
    expect(report.offCursorTopPoints).toBeGreaterThan(BLOCK_SIZE / 2);
  });

  it('holds units that src/rules evaluates to the lot the block gives (sampled)', () => {
    for (let p = 0; p < BLOCK_SIZE; p += 499) {
      const unit = block.unitAt(p);
      expect(unitProblems(unit)).toEqual([]);
      expect(evaluate(unit).winCents).toBe(block.lotCentsAt(p));
      expect(unitPair(unit)).toBeDefined();
    }
  });

  it('spreads winners evenly over the sale order (a shuffled, not sorted, block)', () => {
    // Winners per tenth of the block: 25 111.9 expected, σ ≈ 137; allow 6σ.
    const tenths = new Array<number>(10).fill(0);
    for (let p = 0; p < BLOCK_SIZE; p++) if (block.lotCentsAt(p) > 0) tenths[Math.floor(p / 100_000)]!++;
    for (const n of tenths) expect(Math.abs(n - 25_111.9)).toBeLessThan(6 * 137);
    const jackpot = [...Array(BLOCK_SIZE).keys()].find((p) => block.lotCentsAt(p) === 10_000_000);
    expect(jackpot).toBeDefined();
  });

  it('is byte-identical for the same seed, and its prefixes are the small test blocks', () => {
    const again = generateBlock({ stakeCents: 500, seedHex });
    expect(again.id).toBe(block.id);
    expect(Buffer.from(again.fileBytes()).equals(Buffer.from(block.fileBytes()))).toBe(true);
    const prefix = generateBlock({ stakeCents: 500, seedHex, count: 10_000 });
    expect(Buffer.from(prefix.body).equals(Buffer.from(block.body.subarray(0, 10_000 * UNIT_BYTES)))).toBe(true);
  });

  it('fails the audit when one unit is turned into another lot consistently (lot table no longer Article 3)', () => {
    const body = Uint8Array.from(block.body);
    // Turn one losing unit into the faces and declaration of a 2× unit borrowed from another position.
    const losing = [...Array(100).keys()].find((p) => block.lotCentsAt(p) === 0)!;
    const twice = [...Array(1_000).keys()].find((p) => block.lotCentsAt(p) === 1_000)!;
    body.copyWithin(losing * UNIT_BYTES, twice * UNIT_BYTES, (twice + 1) * UNIT_BYTES);
    const tampered = auditBlock(assembleBlock(500, Buffer.from(seedHex, 'hex'), body));
    expect(tampered.ok).toBe(false);
    const messages = tampered.problems.map((p) => `${p.position} ${p.message}`);
    expect(messages).toContain('-1 lot of 0 cents: 748880 units, Article 3 says 748881');
    expect(messages).toContain('-1 lot of 1000 cents: 57101 units, Article 3 says 57100');
    expect(messages.some((m) => m.startsWith('-1 payout'))).toBe(true);
  });
});

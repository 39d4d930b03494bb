import {
  BLOCK_SIZE,
  blockLotTable,
  blockPayoutBasisPoints,
  formatCents,
  formatCount,
  STAKES_CENTS,
  type Cents,
  type StakeCents,
} from '../../rules/index.ts';
import type { BlockPool, BlockRecord, SoldLot } from '../store/types.ts';

/** One lot of a stake: sold so far, next to what the regulation's table gives for the units sold. */
export interface LotLine {
  lotCents: Cents;
  /** Lots in a full block (Article 3). */
  perBlock: number;
  sold: number;
  /** The table's count pro rata of the units sold, in tenths of a unit (integers only). */
  expectedTenths: number;
}

/** One block as the report lists it. */
export interface ReportedBlock {
  id: string;
  pool: BlockPool;
  status: BlockRecord['status'];
  sold: number;
  left: number;
}

export interface StakeReport {
  stakeCents: StakeCents;
  /** The real blocks: what is counted below. */
  blocks: ReportedBlock[];
  unitsSold: number;
  /** Units still to sell in the open and queued blocks. */
  unitsLeft: number;
  lots: LotLine[];
  stakesCents: Cents;
  payoutCents: Cents;
  /** The demo pool's blocks, listed apart: play money, never counted in the real sales above. */
  demo: { blocks: ReportedBlock[]; unitsSold: number; unitsLeft: number };
}

function reported(b: BlockRecord): ReportedBlock {
  return {
    id: b.id,
    pool: b.pool,
    status: b.status,
    sold: b.nextPosition,
    left: b.status === 'closed' ? 0 : b.count - b.nextPosition,
  };
}

/**
 * `npm run ops -- report`: per stake, its real blocks, the units sold and left, the lots
 * paid by tier next to the regulation's table for the units sold, and the payout so far.
 * Sold units are the blocks' cursors (every position below a cursor is sold: the ledger
 * audit proves it); lots come from the plays themselves. Demo blocks are listed apart and
 * counted in none of it: their units are sold for play money.
 */
export function salesReport(blocks: readonly BlockRecord[], soldLots: readonly SoldLot[]): StakeReport[] {
  const real = blocks.filter((b) => b.pool === 'real');
  const stakeOfBlock = new Map(real.map((b) => [b.id, b.stakeCents]));
  return STAKES_CENTS.map((stakeCents) => {
    const mine = real.filter((b) => b.stakeCents === stakeCents);
    const demo = blocks.filter((b) => b.pool === 'demo' && b.stakeCents === stakeCents).map(reported);
    const unitsSold = mine.reduce((n, b) => n + b.nextPosition, 0);
    const unitsLeft = mine.filter((b) => b.status !== 'closed').reduce((n, b) => n + b.count - b.nextPosition, 0);
    const soldByLot = new Map<Cents, number>();
    for (const lot of soldLots) {
      if (stakeOfBlock.get(lot.blockId) !== stakeCents) continue;
      soldByLot.set(lot.lotCents, (soldByLot.get(lot.lotCents) ?? 0) + lot.count);
    }
    const table = blockLotTable(stakeCents);
    const lots: LotLine[] = table.map((row) => ({
      lotCents: row.lotCents,
      perBlock: row.count,
      sold: soldByLot.get(row.lotCents) ?? 0,
      expectedTenths: Math.round((row.count * unitsSold * 10) / BLOCK_SIZE),
    }));
    // A lot outside the table would be a defect the ledger audit reports; show it rather than hide it.
    for (const [lotCents, sold] of soldByLot) {
      if (!table.some((row) => row.lotCents === lotCents))
        lots.push({ lotCents, perBlock: 0, sold, expectedTenths: 0 });
    }
    return {
      stakeCents,
      blocks: mine.map(reported),
      unitsSold,
      unitsLeft,
      lots,
      stakesCents: unitsSold * stakeCents,
      payoutCents: lots.reduce((sum, lot) => sum + lot.sold * lot.lotCents, 0),
      demo: {
        blocks: demo,
        unitsSold: demo.reduce((n, b) => n + b.sold, 0),
        unitsLeft: demo.reduce((n, b) => n + b.left, 0),
      },
    };
  });
}

const tenths = (t: number) => `${formatCount(Math.floor(t / 10))},${t % 10}`;
/** A ratio of two integers as a percentage with two decimals, in integer arithmetic. */
function percent(part: number, whole: number): string {
  if (whole === 0) return '—';
  const hundredths = Math.round((part * 10_000) / whole);
  return `${Math.floor(hundredths / 100)},${String(hundredths % 100).padStart(2, '0')} %`;
}

function blockLine(block: ReportedBlock): string {
  return (
    `  block ${block.id.slice(0, 16)}…  ${block.pool.padEnd(4)}  ${block.status.padEnd(6)}  ` +
    `sold ${formatCount(block.sold)}, left ${formatCount(block.left)}`
  );
}

/** The report as an operator reads it: French amounts (1 000,50 €), one section per stake. */
export function formatSalesReport(report: readonly StakeReport[]): string {
  const lines: string[] = [];
  for (const stake of report) {
    lines.push(
      `${formatCents(stake.stakeCents)}: ${formatCount(stake.unitsSold)} sold, ${formatCount(stake.unitsLeft)} left, ` +
        `${stake.blocks.length} block${stake.blocks.length === 1 ? '' : 's'}`,
    );
    for (const block of stake.blocks) lines.push(blockLine(block));
    if (stake.unitsSold > 0) {
      lines.push(
        `  ${'lot'.padStart(12)}  ${'sold'.padStart(9)}  ${'table for the units sold'.padStart(25)}  ${'per block'.padStart(10)}`,
      );
      for (const lot of stake.lots) {
        const name = lot.lotCents === 0 ? 'no lot' : formatCents(lot.lotCents);
        lines.push(
          `  ${name.padStart(12)}  ${formatCount(lot.sold).padStart(9)}  ${tenths(lot.expectedTenths).padStart(25)}  ${formatCount(lot.perBlock).padStart(10)}`,
        );
      }
    }
    lines.push(
      `  stakes ${formatCents(stake.stakesCents)}, payout so far ${formatCents(stake.payoutCents)} ` +
        `(${percent(stake.payoutCents, stake.stakesCents)} of stakes; a whole block: ` +
        `${percent(blockPayoutBasisPoints(stake.stakeCents), 10_000)})`,
    );
    const { demo } = stake;
    if (demo.blocks.length > 0) {
      lines.push(
        `  demo pool (play money, not counted above): ${formatCount(demo.unitsSold)} sold, ` +
          `${formatCount(demo.unitsLeft)} left, ${demo.blocks.length} block${demo.blocks.length === 1 ? '' : 's'}`,
      );
      for (const block of demo.blocks) lines.push(`  ${blockLine(block)}`);
    }
  }
  return lines.join('\n');
}

import { BLOCK_SIZE, type StakeCents } from '../../rules/index.ts';
import { blockPool, type BlockPool } from '../blockPool.ts';
import type { BlockRecord } from '../store/types.ts';

/** One stake of one pool: what its blocks hold and sell. */
export interface SupplyKey {
  stakeCents: StakeCents;
  pool: BlockPool;
}

export interface SupplyForecast extends SupplyKey {
  /** Units left in the open and queued blocks. */
  unitsLeft: number;
  /** Open and queued blocks. */
  blocksOnSale: number;
  /** Units sold per hour over the window measured (the last hour, or less just after a start). */
  unitsPerHour: number;
  /** Hours until the open and queued blocks run out at that rate; Infinity while nothing sells. */
  hoursLeft: number;
  /** When they run out at that rate; null while nothing sells. */
  runsOutAt: Date | null;
  /** Blocks (of BLOCK_SIZE units) to load so that the stake lasts `days` more days at that rate. */
  blocksToLoad: number;
}

const keyOf = (key: SupplyKey): string => `${key.stakeCents}/${key.pool}`;

/** Units sold so far per stake and pool, read from the blocks' cursors (a block sells from 0 on). */
export function unitsSoldByCursor(blocks: readonly BlockRecord[]): Map<string, number> {
  const sold = new Map<string, number>();
  for (const block of blocks) {
    const key = keyOf({ stakeCents: block.stakeCents, pool: blockPool(block) });
    sold.set(key, (sold.get(key) ?? 0) + block.nextPosition);
  }
  return sold;
}

/** Units sold per stake and pool from a count per block (plays of a period). */
export function unitsSoldByKey(
  blocks: readonly BlockRecord[],
  soldPerBlock: readonly { blockId: string; count: number }[],
): Map<string, number> {
  const byId = new Map(blocks.map((block) => [block.id, block]));
  const sold = new Map<string, number>();
  for (const { blockId, count } of soldPerBlock) {
    const block = byId.get(blockId);
    if (!block) continue;
    const key = keyOf({ stakeCents: block.stakeCents, pool: blockPool(block) });
    sold.set(key, (sold.get(key) ?? 0) + count);
  }
  return sold;
}

/**
 * Per stake and pool of any block ever loaded: how long the open and queued blocks last at
 * the rate of `soldInWindow` units over `windowHours`, and how many blocks to load to last
 * `days` more days.
 */
export function supplyForecast(
  blocks: readonly BlockRecord[],
  soldInWindow: ReadonlyMap<string, number>,
  windowHours: number,
  now: Date,
  days: number,
): SupplyForecast[] {
  const keys = new Map<string, SupplyForecast>();
  for (const block of blocks) {
    const key: SupplyKey = { stakeCents: block.stakeCents, pool: blockPool(block) };
    let row = keys.get(keyOf(key));
    if (!row) {
      row = { ...key, unitsLeft: 0, blocksOnSale: 0, unitsPerHour: 0, hoursLeft: 0, runsOutAt: null, blocksToLoad: 0 };
      keys.set(keyOf(key), row);
    }
    if (block.status === 'closed') continue;
    row.unitsLeft += block.count - block.nextPosition;
    row.blocksOnSale++;
  }
  for (const [key, row] of keys) {
    const sold = soldInWindow.get(key) ?? 0;
    row.unitsPerHour = windowHours > 0 ? sold / windowHours : 0;
    if (row.unitsPerHour > 0) {
      row.hoursLeft = row.unitsLeft / row.unitsPerHour;
      row.runsOutAt = new Date(now.getTime() + row.hoursLeft * 3_600_000);
    } else {
      row.hoursLeft = row.unitsLeft > 0 ? Infinity : 0;
    }
    const needed = row.unitsPerHour * 24 * days - row.unitsLeft;
    row.blocksToLoad = needed > 0 ? Math.ceil(needed / BLOCK_SIZE) : 0;
  }
  return [...keys.values()].sort((a, b) => a.stakeCents - b.stakeCents || a.pool.localeCompare(b.pool));
}

/** The window `ops supply` and the metric measure the rate over. */
export const SUPPLY_WINDOW_MS = 3_600_000;

/**
 * The units sold in the last hour, measured from the blocks' cursors sampled at every
 * scrape (a cursor only moves forward; a block loaded meanwhile adds its own): no query of
 * the plays, whatever their number. Just after a start the window is what has been seen.
 */
export class SupplySampler {
  private samples: { at: number; sold: Map<string, number> }[] = [];

  /** Adds a sample; the units sold per stake and pool since the oldest sample of the window, and its length. */
  sample(blocks: readonly BlockRecord[], now: Date): { sold: Map<string, number>; windowHours: number } {
    const at = now.getTime();
    const sold = unitsSoldByCursor(blocks);
    this.samples.push({ at, sold });
    // Keep the newest sample at least an hour old as the window's start.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - SUPPLY_WINDOW_MS) this.samples.shift();
    const first = this.samples[0]!;
    const delta = new Map<string, number>();
    for (const [key, units] of sold) delta.set(key, Math.max(0, units - (first.sold.get(key) ?? 0)));
    return { sold: delta, windowHours: (at - first.at) / 3_600_000 };
  }
}

/** `ops supply` as text: one line per stake and pool. */
export function formatSupply(rows: readonly SupplyForecast[], days: number): string {
  if (rows.length === 0) return 'no block loaded';
  const lines = rows.map((row) => {
    const stake = `${row.stakeCents / 100} € ${row.pool}`;
    const left = `${row.unitsLeft} units left in ${row.blocksOnSale} open/queued block(s)`;
    const rate = `${Math.round(row.unitsPerHour)} sold in the last hour`;
    const end =
      row.runsOutAt === null
        ? row.unitsLeft === 0
          ? 'nothing left to sell'
          : 'nothing sold: no end in sight'
        : `run out in ${row.hoursLeft.toFixed(1)} h (${row.runsOutAt.toISOString()})`;
    return `${stake}: ${left}; ${rate}; ${end}; load ${row.blocksToLoad} block(s) for the next ${days} day(s)`;
  });
  return lines.join('\n');
}

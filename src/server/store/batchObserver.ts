import type { StakeCents } from '../../rules/index.ts';
import type { Outcome } from './batchPlan.ts';
import type { BlockPool } from './types.ts';

/** Units a batch sold of one stake from one pool (`fixture`: test mode's units, from no block). */
export interface SoldCount {
  stakeCents: StakeCents;
  pool: BlockPool | 'fixture';
  count: number;
  /** The lots those units won, in cents. */
  wonCents: number;
}

/**
 * What a store tells of its play batches, for whoever watches (the server's metrics). The
 * store knows only this interface, never a metrics library; no observer costs nothing.
 */
export interface PlayBatchObserver {
  /** A batch committed: how many plays it held, the units it sold and the cents they won per stake and pool, its transaction's seconds. */
  committed(batch: CommittedBatch): void;
  /** The same batch made durable (SQLite's WAL fsync, PostgreSQL's log flush): seconds after its commit. */
  durable(seconds: number): void;
}

export interface CommittedBatch {
  plays: number;
  sold: readonly SoldCount[];
  commitSeconds: number;
}

/** The units a batch sold, and the cents they won, per stake and pool (a replayed playId sells nothing). */
export function soldByStakeAndPool(outcomes: readonly Outcome[]): SoldCount[] {
  const sold = new Map<string, SoldCount>();
  for (const outcome of outcomes) {
    if ('result' in outcome && outcome.result.ok && !outcome.result.replayed) {
      const { stakeCents, pool, winCents } = outcome.result.play;
      const key = `${stakeCents}:${pool}`;
      const count = sold.get(key);
      if (count) {
        count.count++;
        count.wonCents += winCents;
      } else sold.set(key, { stakeCents, pool: pool ?? 'fixture', count: 1, wonCents: winCents });
    }
  }
  return [...sold.values()];
}

/** Tells `observer` (if any) of a committed batch, and of its durability once `durable` settles. */
export function reportBatch(
  observer: PlayBatchObserver | null,
  outcomes: readonly Outcome[],
  startedAt: number,
  committedAt: number,
  durable: Promise<void>,
): void {
  if (!observer) return;
  observer.committed({
    plays: outcomes.length,
    sold: soldByStakeAndPool(outcomes),
    commitSeconds: (committedAt - startedAt) / 1000,
  });
  durable.then(
    () => observer.durable((performance.now() - committedAt) / 1000),
    () => {},
  );
}

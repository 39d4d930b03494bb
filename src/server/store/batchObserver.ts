import type { StakeCents } from '../../rules/index.ts';
import type { Outcome } from './batchPlan.ts';

/**
 * What a store tells of its play batches, for whoever watches (the server's metrics). The
 * store knows only this interface, never a metrics library; no observer costs nothing.
 */
export interface PlayBatchObserver {
  /** A batch committed: how many plays it held, the units it sold and the cents they won per stake, its transaction's seconds. */
  committed(batch: CommittedBatch): void;
  /** The same batch made durable (SQLite's WAL fsync, PostgreSQL's log flush): seconds after its commit. */
  durable(seconds: number): void;
}

export interface CommittedBatch {
  plays: number;
  soldByStake: ReadonlyMap<StakeCents, number>;
  /** The lots won by those units, in cents, per stake. */
  wonCentsByStake: ReadonlyMap<StakeCents, number>;
  commitSeconds: number;
}

/** The units a batch sold, and the cents they won, per stake (a replayed playId sells nothing). */
export function soldByStake(outcomes: readonly Outcome[]): {
  sold: Map<StakeCents, number>;
  won: Map<StakeCents, number>;
} {
  const sold = new Map<StakeCents, number>();
  const won = new Map<StakeCents, number>();
  for (const outcome of outcomes) {
    if ('result' in outcome && outcome.result.ok && !outcome.result.replayed) {
      const { stakeCents, winCents } = outcome.result.play;
      sold.set(stakeCents, (sold.get(stakeCents) ?? 0) + 1);
      won.set(stakeCents, (won.get(stakeCents) ?? 0) + winCents);
    }
  }
  return { sold, won };
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
  const { sold, won } = soldByStake(outcomes);
  observer.committed({
    plays: outcomes.length,
    soldByStake: sold,
    wonCentsByStake: won,
    commitSeconds: (committedAt - startedAt) / 1000,
  });
  durable.then(
    () => observer.durable((performance.now() - committedAt) / 1000),
    () => {},
  );
}

import type { StakeCents } from '../../rules/index.ts';
import type { Outcome } from './batchPlan.ts';

/**
 * What a store tells of its play batches, for whoever watches (the server's metrics). The
 * store knows only this interface, never a metrics library; no observer costs nothing.
 */
export interface PlayBatchObserver {
  /** A batch committed: how many plays it held, the units it sold per stake, its transaction's seconds. */
  committed(batch: { plays: number; soldByStake: ReadonlyMap<StakeCents, number>; commitSeconds: number }): void;
  /** The same batch made durable (SQLite's WAL fsync, PostgreSQL's log flush): seconds after its commit. */
  durable(seconds: number): void;
}

/** The units a batch sold, per stake (a replayed playId sells nothing). */
export function soldByStake(outcomes: readonly Outcome[]): Map<StakeCents, number> {
  const sold = new Map<StakeCents, number>();
  for (const outcome of outcomes) {
    if ('result' in outcome && outcome.result.ok && !outcome.result.replayed) {
      const stake = outcome.result.play.stakeCents;
      sold.set(stake, (sold.get(stake) ?? 0) + 1);
    }
  }
  return sold;
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
    soldByStake: soldByStake(outcomes),
    commitSeconds: (committedAt - startedAt) / 1000,
  });
  durable.then(
    () => observer.durable((performance.now() - committedAt) / 1000),
    () => {},
  );
}

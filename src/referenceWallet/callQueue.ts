import type { FlushTrigger } from '../durability/walSync.ts';
import type { CallItem, Handled, WalletLedger } from './ledger.ts';

interface Queued {
  item: CallItem;
  resolve: (handled: Handled) => void;
  reject: (error: Error) => void;
}

/**
 * Group commit of the contract's calls: the calls that arrive in one turn of the event loop,
 * and those that arrive while a WAL fsync runs, are handled together in one transaction
 * (`WalletLedger.handleBatch`), in arrival order: one commit and one fsync for all, where
 * one each per call cost most of a call's CPU. A call's promise settles once its batch has
 * committed; the answer still waits for `durable()` before it leaves.
 */
export class CallQueue {
  private pending: Queued[] = [];
  /** After this turn's requests are read; while an fsync runs, calls gather until it ends. */
  private readonly flushSoon: FlushTrigger;

  constructor(private readonly ledger: WalletLedger) {
    this.flushSoon = ledger.flushTrigger(() => this.flush());
  }

  handle(item: CallItem): Promise<Handled> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.flushSoon.request();
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    let results: (Handled | Error)[];
    try {
      results = this.ledger.handleBatch(batch.map((queued) => queued.item));
    } catch (error) {
      // The transaction failed: nothing of the batch is kept, nobody is answered.
      for (const queued of batch) queued.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    batch.forEach((queued, i) => {
      const result = results[i]!;
      if (result instanceof Error) queued.reject(result);
      else queued.resolve(result);
    });
  }
}

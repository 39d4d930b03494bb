import type { Settled } from '../batchPlan.ts';
import { isConnectionLoss } from './retry.ts';

/**
 * Gathers the calls that arrive together — within one turn of the event loop, or while the
 * previous group's statement runs — and writes each group with one statement, in order, one
 * group at a time. A group that fails for another reason than a lost connection may be one
 * item's fault (a constraint it breaks): its items are then written one by one, so that such
 * an item fails alone. A lost connection fails the whole group.
 */
export class Gatherer<I, O> {
  private queue: { item: I; resolve: (result: O) => void; reject: (error: unknown) => void }[] = [];
  private running: Promise<void> | null = null;

  /** `writeGroup` writes the items in one statement: one result per item, in order; throws if it wrote nothing. */
  constructor(
    private readonly writeGroup: (items: readonly I[]) => Promise<O[]>,
    private readonly maxGroup: number,
  ) {}

  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /** Resolves once every call added so far is answered. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, this.maxGroup);
      const outcomes = await this.write(group.map((waiting) => waiting.item));
      outcomes.forEach((outcome, i) => {
        if ('result' in outcome) group[i]!.resolve(outcome.result);
        else group[i]!.reject(outcome.error);
      });
    }
    this.running = null;
  }

  private async write(items: readonly I[]): Promise<Settled<O>[]> {
    try {
      const results = await this.writeGroup(items);
      return items.map((_, i) => ({ result: results[i]! }));
    } catch (error) {
      if (items.length === 1 || isConnectionLoss(error)) return items.map(() => ({ error }));
      return Promise.all(
        items.map((item) =>
          this.writeGroup([item]).then(
            ([result]): Settled<O> => ({ result: result! }),
            (alone: unknown): Settled<O> => ({ error: alone }),
          ),
        ),
      );
    }
  }
}

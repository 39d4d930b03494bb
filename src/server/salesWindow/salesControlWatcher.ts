import type { SalesCalendar } from './salesCalendar.ts';
import type { SalesControlBook } from '../store/types.ts';

/**
 * Keeps this instance's sales window in step with the operator's setting in the database:
 * read once at start, then every `intervalMs` (one small query), so that every instance
 * sees `npm run ops -- sales open|close` within that time. A failed read keeps the last
 * setting known and is tried again at the next tick.
 */
export class SalesControlWatcher {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly store: SalesControlBook,
    private readonly sales: SalesCalendar,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  async refresh(): Promise<void> {
    this.sales.setControl(await this.store.salesControl());
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    // One read at a time: the next is scheduled once this one is done.
    this.timer = setTimeout(() => {
      this.refresh()
        .catch(this.onError)
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.intervalMs);
    this.timer.unref();
  }
}

import type { WalletSettings } from '../config.ts';
import type { WalletBook } from '../store/types.ts';
import { holdMs, sendSettlement } from './settlement.ts';

export interface DrainerOptions {
  /** How often an idle drainer looks for due entries (ms). */
  pollMs?: number;
  /** Entries taken at once. */
  batch?: number;
  log?: (level: 'warn' | 'error', message: string) => void;
}

/**
 * Sends the wins and rollbacks owed to the wallet until each is answered. Every instance
 * runs one: an entry is taken by one sender at a time (the claim moves it out of reach
 * until the call's timeout has passed), so instances share the work without sending the
 * same entry at once. Each pass first rolls back the bets whose outcome stayed unknown
 * past their deadline (a sender that crashed, anywhere), then sends what is due.
 */
export class OutboxDrainer {
  private readonly pollMs: number;
  private readonly batch: number;
  private readonly log: NonNullable<DrainerOptions['log']>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private again = false;

  constructor(
    private readonly store: WalletBook,
    private readonly settings: WalletSettings,
    options: DrainerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.batch = options.batch ?? 32;
    this.log = options.log ?? (() => {});
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.kick();
  }

  /** Something became due (a rollback just owed, a win unanswered): look now. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.kick();
      } else {
        this.timer = setTimeout(() => this.kick(), this.pollMs);
        this.timer.unref();
      }
    });
  }

  /** Stops looking; the pass in progress finishes (its calls are answered or time out). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private async loop(): Promise<void> {
    try {
      while (!this.stopped && (await this.drainOnce()) === this.batch) {
        // A full batch: more may be due.
      }
    } catch (error) {
      // The database may be away for a moment: the next pass tries again.
      this.log('error', `wallet outbox: ${(error as Error).message}`);
    }
  }

  /** One pass: stale bets rolled back, then up to one batch of due entries sent; how many were sent. */
  async drainOnce(): Promise<number> {
    const now = new Date();
    const cancelled = await this.store.cancelStaleWalletBets(now);
    if (cancelled > 0) this.log('warn', `wallet: ${cancelled} bet(s) without a known outcome rolled back`);
    const due = await this.store.claimOutbox(now, this.batch, new Date(now.getTime() + holdMs(this.settings)));
    await Promise.all(
      due.map(async (entry) => {
        const { outcome, recorded } = await sendSettlement(this.store, this.settings, entry);
        await recorded;
        if (outcome.kind === 'settled' && outcome.state === 'failed') {
          this.log(
            'error',
            `wallet: ${entry.kind} ${entry.requestId} answered ${outcome.answerStatus}: needs a person`,
          );
        }
      }),
    );
    return due.length;
  }
}

import type { Launched } from '../../contract/api.ts';
import type { GameApi } from '../net/api.ts';

/** Attempts per report: a network failure is retried after 0.5 s, 1 s, 1.5 s. */
const ATTEMPTS = 4;
const RETRY_STEP_MS = 500;

/**
 * Tells the server what the player has seen (wheels launched, round finished), one
 * report after the other in the order they happened, each retried while the network
 * fails. A refusal from the server is not retried: the server's record stands.
 */
export class ProgressReports {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: Pick<GameApi, 'progress' | 'finish'>,
    private readonly wait: (ms: number) => Promise<void>,
  ) {}

  launched(token: string, playId: string, launched: Launched): void {
    this.queue(() => this.api.progress(token, playId, launched));
  }

  finished(token: string, playId: string): Promise<void> {
    return this.queue(() => this.api.finish(token, playId));
  }

  /** Settles when every report queued so far has been sent or given up. */
  sent(): Promise<void> {
    return this.chain;
  }

  private queue(call: () => Promise<{ ok: boolean; kind?: string }>): Promise<void> {
    this.chain = this.chain.then(() => this.withRetries(call));
    return this.chain;
  }

  private async withRetries(call: () => Promise<{ ok: boolean; kind?: string }>): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const result = await call();
      if (result.ok || result.kind !== 'network') return;
      await this.wait(RETRY_STEP_MS * (attempt + 1));
    }
  }
}

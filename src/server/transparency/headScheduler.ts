import type { BlockRecord } from '../store/types.ts';
import type { BlockPublication } from './publication.ts';

/**
 * Each instance, every LOG_HEAD_SECONDS: logs the seeds of blocks that ended since (sold
 * out, or closed by the operator), then signs a head if the newest is a period old. Every
 * instance runs it; the log's lock makes one of them sign. A failed turn is reported and
 * the next one tries again.
 */
export class HeadScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly publication: BlockPublication,
    private readonly blocks: () => Promise<BlockRecord[]>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** One turn (tests call it directly). */
  tick(): Promise<void> {
    this.running ??= (async () => {
      try {
        await this.publication.revealSeeds(await this.blocks());
        await this.publication.log.signHeadIfDue();
      } catch (error) {
        this.onError(error);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  start(): void {
    // A turn at a quarter of the period: a head is never much older than the period.
    const every = Math.max(250, Math.floor(this.publication.log.headPeriodMs / 4));
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

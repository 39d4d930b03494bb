import { startTypeScriptWorker } from '../../emission/index.ts';
import { BLOCK_SIZE, STAKES_CENTS, type StakeCents } from '../../rules/index.ts';
import type { BlockBook, BlockRecord, PlayRecord } from '../store/types.ts';
import { generateStarterBlocks, type MadeBlock } from './blockLoading.ts';
import type { DemoBlockJob, DemoBlockReply } from './demoBlockWorker.ts';

/** Makes a fresh demo block file of a stake: in a worker thread (makeDemoBlockInWorker), off the requests. */
export type DemoBlockMaker = (stakeCents: StakeCents, dataDir: string) => Promise<MadeBlock>;

export interface DemoBlocksOptions {
  store: BlockBook;
  /** Publishes a block's root (read from the commitment kept beside it). */
  publish: (block: Pick<BlockRecord, 'id' | 'filePath' | 'pool'>) => Promise<unknown>;
  dataDir: string;
  /** Below this many demo units left in a stake, a fresh demo block is made (0: never). */
  refillBelowUnits: number;
  /** Told of each demo block put on sale (the sale's roots, the library). */
  onAdded: (block: BlockRecord) => void;
  log: (line: string) => void;
  make?: DemoBlockMaker;
}

/** Units a stake's demo pool still holds in its open and queued blocks. */
function demoUnitsLeft(blocks: readonly BlockRecord[], stakeCents: StakeCents): number {
  return blocks
    .filter((b) => b.pool === 'demo' && b.stakeCents === stakeCents && b.status !== 'closed')
    .reduce((n, b) => n + b.count - b.nextPosition, 0);
}

/**
 * The demo pool's supply: the server makes its demo blocks itself, with the one generator
 * (Article 3's lots, committed and provable like real blocks), so that demo play never
 * stops and never touches a real block. One per stake at a first start; then, when a demo
 * sale leaves its stake fewer than `refillBelowUnits` units, a fresh block is made in a
 * worker thread, its root published, and put on sale behind the open one before it runs
 * out. Several instances on one database may each add one: a demo block more, never less.
 */
export class DemoBlocks {
  private readonly making = new Map<StakeCents, Promise<void>>();
  /** Per stake, the block whose run-down was checked last: checked once per block, not per play. */
  private readonly checked = new Map<StakeCents, string>();
  private readonly make: DemoBlockMaker;
  private closed = false;

  constructor(private readonly options: DemoBlocksOptions) {
    this.make = options.make ?? makeDemoBlockInWorker;
  }

  /**
   * First start (no demo block yet: a new database, or one from before pools): one demo
   * block per stake, made before the server listens. Later, a stake running low is refilled.
   */
  async ensureFirstBlocks(): Promise<void> {
    const blocks = await this.options.store.listBlocks();
    if (blocks.some((b) => b.pool === 'demo')) return;
    const { store, dataDir, log, onAdded } = this.options;
    log('no demo block yet: generating one per stake (a few seconds each)…');
    for (const block of await generateStarterBlocks(store, dataDir, log, 'demo')) onAdded(block);
  }

  /** Checks every stake once (a restart with a demo pool running low refills it). */
  checkEachStake(): void {
    for (const stake of STAKES_CENTS) this.refillIfLow(stake);
  }

  /** After a unit is sold: a demo block running down gets its successor made. */
  sold(play: PlayRecord): void {
    if (play.pool !== 'demo' || play.blockId === null || play.position === null) return;
    // Every block on sale holds BLOCK_SIZE units (verifyForSale).
    if (BLOCK_SIZE - play.position - 1 >= this.options.refillBelowUnits) return;
    if (this.checked.get(play.stakeCents) === play.blockId) return;
    this.checked.set(play.stakeCents, play.blockId);
    this.refillIfLow(play.stakeCents);
  }

  /** Resolves once no demo block is being made (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.making.size > 0) await Promise.allSettled([...this.making.values()]);
  }

  /** No new block is started; one being made is let finish or fail. */
  close(): void {
    this.closed = true;
  }

  private refillIfLow(stakeCents: StakeCents): void {
    if (this.closed || this.options.refillBelowUnits <= 0 || this.making.has(stakeCents)) return;
    const made = this.refill(stakeCents)
      .catch((error: unknown) => {
        // The next block that runs down tries again.
        this.checked.delete(stakeCents);
        this.options.log(`cannot make a demo block for ${stakeCents / 100} €: ${(error as Error).message}`);
      })
      .finally(() => this.making.delete(stakeCents));
    this.making.set(stakeCents, made);
  }

  private async refill(stakeCents: StakeCents): Promise<void> {
    const { store, publish, dataDir, refillBelowUnits, onAdded, log } = this.options;
    if (demoUnitsLeft(await store.listBlocks(), stakeCents) >= refillBelowUnits) return;
    const started = Date.now();
    const { block, root } = await this.make(stakeCents, dataDir);
    if (this.closed) return;
    // Its root is published before it is on sale: the hand-over to it never waits.
    await publish(block);
    const record = await store.addBlock(block, new Date());
    onAdded(record);
    log(
      `made demo block ${block.id.slice(0, 12)}… for ${stakeCents / 100} € in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `(${record.status}); root ${root}`,
    );
  }
}

/** Generates, checks and commits one demo block in a worker thread of its own. */
export const makeDemoBlockInWorker: DemoBlockMaker = (stakeCents, dataDir) =>
  new Promise((resolve, reject) => {
    const job: DemoBlockJob = { stakeCents, dataDir };
    const worker = startTypeScriptWorker(new URL('./demoBlockWorker.ts', import.meta.url).href, job);
    // A block being made does not keep a stopping process alive.
    worker.unref();
    worker.once('message', (reply: DemoBlockReply) => {
      if ('made' in reply) resolve(reply.made);
      else reject(new Error(reply.error));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the demo block worker stopped (exit code ${code})`)));
  });

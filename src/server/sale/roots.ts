import { queueKey, type QueueKey } from '../store/rows.ts';
import type { BlockBook, BlockPool, BlockRecord } from '../store/types.ts';
import type { StakeCents } from '../../rules/index.ts';

/**
 * What the sale needs of a block's publication (transparency/publication.ts): whether its
 * root is published and logged in a head signed before now, and publishing it.
 */
export interface RootPublisher {
  isPublished(block: Pick<BlockRecord, 'id'>): boolean;
  publish(block: Pick<BlockRecord, 'id' | 'filePath' | 'pool'>): Promise<unknown>;
}

/** How long the list of blocks on sale is trusted before it is read again (in the background). */
export const BLOCKS_ON_SALE_FRESH_MS = 1000;

/**
 * The step a sale awaits before it takes a unit: every block that the store may sell next
 * to this stake and pool has its root published. No unit is sold before its block's root
 * is published (the store checks it too, and answers ROOT_PENDING rather than sell).
 *
 * The blocks on sale are known from the start (`know`), from the blocks this server puts
 * on sale itself (`add`), and from a read of the store at most once a second, in the
 * background: a block loaded by `ops load` meanwhile is met by the store first, which
 * then names it (`reached`), and the sale waits for its root before it sells again.
 */
export class SaleRoots {
  private onSale = new Map<QueueKey, BlockRecord[]>();
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly store: BlockBook,
    private readonly library: RootPublisher,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The blocks on sale as the store lists them; their roots are published from now on, open blocks first. */
  know(records: readonly BlockRecord[]): void {
    const onSale = new Map<QueueKey, BlockRecord[]>();
    const selling = records.filter((r) => r.status !== 'closed' && r.nextPosition < r.count);
    const openFirst = [...selling].sort((a, b) => Number(b.status === 'open') - Number(a.status === 'open'));
    for (const record of openFirst) {
      const key = queueKey(record.stakeCents, record.pool);
      onSale.set(key, [...(onSale.get(key) ?? []), record]);
      if (!this.library.isPublished(record)) this.library.publish(record).catch(() => {}); // the sale awaits it again
    }
    this.onSale = onSale;
    this.readAt = this.now();
  }

  /** A block this server just put on sale (its root published already, or started now). */
  add(record: BlockRecord): void {
    const key = queueKey(record.stakeCents, record.pool);
    const list = this.onSale.get(key) ?? [];
    if (!list.some((b) => b.id === record.id)) this.onSale.set(key, [...list, record]);
    if (!this.library.isPublished(record)) this.library.publish(record).catch(() => {});
  }

  /**
   * Resolves once every block of the stake's pool that may be sold has its root published:
   * true when it had to wait for one (the sale then takes its time again).
   */
  async ready(stakeCents: StakeCents, pool: BlockPool): Promise<boolean> {
    if (this.now() - this.readAt > BLOCKS_ON_SALE_FRESH_MS) this.refresh().catch(() => {}); // the next sale retries
    const blocks = this.onSale.get(queueKey(stakeCents, pool));
    if (!blocks || blocks.every((block) => this.library.isPublished(block))) return false;
    await Promise.all(blocks.map((block) => this.library.publish(block)));
    return true;
  }

  /** The store met a block without a published root: learnt, and its root awaited. */
  async reached(block: BlockRecord): Promise<void> {
    this.add(block);
    await this.library.publish(block);
  }

  /** Reads the blocks on sale again (calls at once share one read). */
  refresh(): Promise<void> {
    this.reading ??= this.store
      .listBlocks()
      .then((records) => this.know(records))
      .finally(() => (this.reading = null));
    return this.reading;
  }
}

import type { Unit } from '../../rules/index.ts';
import type { LogPool, TicketLog } from '../../transparency/index.ts';
import { RootNotPublishedError, type BlockLibrary } from '../blocks/blockLibrary.ts';
import type { BlockRecord, UnitSource } from '../store/types.ts';
import type { LoggedEntry, TransparencyLog } from './transparencyLog.ts';

type BlockRef = Pick<BlockRecord, 'id' | 'filePath'>;
/** A block as the log names it: its pool is part of its entry. */
type PooledBlockRef = Pick<BlockRecord, 'id' | 'filePath' | 'pool'>;

/** The most a server waits for its clock to pass the time of a head signed by another instance. */
const MAX_CLOCK_WAIT_MS = 5_000;

/** A block's pool as the log names it: the block's own (schema version 6). */
export function poolOf(block: Pick<BlockRecord, 'pool'>): LogPool {
  return block.pool;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A block's publication: its commitment computed (the library), then logged in the
 * transparency log and in a signed head. No unit of a block is sold before both, and a
 * unit is sold only at a time after that head's: the store takes its units through this
 * source, asks `isPublished` with the sale's time first (ROOT_PENDING, nothing sold, when
 * not yet) and `unitAt` refuses the same (RootNotPublishedError). The sale room awaits
 * `publish` (sale/roots.ts) before it sells, and again for a block the store reported.
 */
export class BlockPublication implements UnitSource {
  private readonly logged = new Map<string, LoggedEntry>();
  private readonly logging = new Map<string, Promise<LoggedEntry>>();

  constructor(
    readonly library: BlockLibrary,
    readonly log: TransparencyLog,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  unitAt(block: BlockRef, position: number, soldAt?: Date): Unit {
    if (!this.isPublished(block, soldAt)) throw new RootNotPublishedError(block);
    return this.library.unitAt(block, position);
  }

  /** Whether the block's entry is in a signed head of a time before `soldAt` (now if not given). */
  isPublished(block: Pick<BlockRecord, 'id'>, soldAt: Date = this.clock()): boolean {
    const logged = this.logged.get(block.id);
    return logged !== undefined && logged.head.timestamp < soldAt.getTime();
  }

  /** Whether the block's entry is in a signed head this server has seen: its units may be sold. */
  isLogged(block: Pick<BlockRecord, 'id'>): boolean {
    return this.logged.has(block.id);
  }

  /** The block's commitment, logged (once: concurrent callers share it). Resolves once this server's clock is past the head. */
  publish(block: PooledBlockRef): Promise<LoggedEntry> {
    const known = this.logged.get(block.id);
    if (known) return Promise.resolve(known);
    let pending = this.logging.get(block.id);
    if (!pending) {
      pending = this.logBlock(block).finally(() => this.logging.delete(block.id));
      this.logging.set(block.id, pending);
    }
    return pending;
  }

  private async logBlock(record: PooledBlockRef): Promise<LoggedEntry> {
    const commitment = await this.library.publish(record);
    const { header } = this.library.get(record);
    const entry = await this.log.logCommitment({
      id: record.id,
      pool: poolOf(record),
      stakeCents: header.stakeCents,
      count: header.count,
      root: commitment.root,
      seedHash: commitment.seedHash,
    });
    // A head signed by an instance whose clock is ahead: sell only once ours has passed it.
    const ahead = entry.head.timestamp - this.clock().getTime() + 1;
    if (ahead > 0) await sleep(Math.min(ahead, MAX_CLOCK_WAIT_MS));
    this.logged.set(record.id, entry);
    return entry;
  }

  /** What a ticket of this block sold at `soldAt` carries of the log. */
  ticketLog(blockId: string, soldAt: Date): Promise<TicketLog | null> {
    return this.log.ticketLog(blockId, soldAt);
  }

  /**
   * Logs the seed of every block that nothing is left to sell of (sold out or closed) and
   * whose commitment is logged: the store closes a block in the transaction that sells its
   * last unit, or when the operator ends its sale, so no unit of it can be sold after.
   */
  async revealSeeds(blocks: readonly BlockRecord[]): Promise<number> {
    const ended = blocks.filter((block) => block.status === 'closed' || block.nextPosition >= block.count);
    if (ended.length === 0) return 0;
    const committed = await this.log.blocksWith('commitment');
    const revealed = await this.log.blocksWith('seed');
    let count = 0;
    for (const block of ended) {
      if (!committed.has(block.id) || revealed.has(block.id)) continue;
      const { seedHex } = await this.library.summary(block);
      await this.log.logSeed(block.id, seedHex);
      count++;
    }
    return count;
  }
}

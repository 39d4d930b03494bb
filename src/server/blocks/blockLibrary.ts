import {
  CommitmentWorkers,
  readBlockFile,
  readCommitmentFile,
  unitProof,
  writeCommitmentFile,
  type Block,
  type BlockCommitment,
} from '../../emission/index.ts';
import type { Unit } from '../../rules/index.ts';
import type { BlockRecord, UnitSource } from '../store/types.ts';

type BlockRef = Pick<BlockRecord, 'id' | 'filePath'>;

/** What the server publishes of a block: its commitment, and its seed once nothing of it is left to sell. */
export interface BlockSummary {
  root: string;
  seedHash: string;
  seedHex: string;
}

/**
 * A unit asked for sale from a block whose root is not published yet: nothing is sold.
 * Its computation has been started; `publish` resolves when it is done.
 */
export class RootNotPublishedError extends Error {
  constructor(readonly block: BlockRef) {
    super(`block ${block.id.slice(0, 16)}…: its commitment is not published yet; nothing of it is sold before`);
  }
}

/**
 * The block files on sale, read once and kept in memory (26 MB each), with their
 * commitments (about 11 MB of tree each). The file's checksum is verified on every read
 * by readBlockFile; its id must match the one the store recorded when the block was
 * loaded, or the file was swapped. A closed block is read only to answer for it, and
 * only its summary is kept.
 *
 * No unit leaves it for a sale before its block's root is published (`unitAt`; the store
 * asks `isPublished` first, and the sale awaits the roots before it sells). A
 * commitment is read from the file kept beside the block (`FILE.commitment`) or computed
 * in worker threads (seconds of CPU for a full block), never on the thread that
 * answers requests.
 */
export class BlockLibrary implements UnitSource {
  private readonly blocks = new Map<string, Block>();
  private readonly commitments = new Map<string, BlockCommitment>();
  private readonly summaries = new Map<string, BlockSummary>();
  private readonly publishing = new Map<string, Promise<BlockCommitment>>();
  /** The blocks known to be on sale or queued, by stake: those a play may take a unit of. */
  private readonly forSale = new Map<number, BlockRef[]>();
  private readonly workers: CommitmentWorkers;

  constructor(options: { workers?: CommitmentWorkers } = {}) {
    this.workers = options.workers ?? new CommitmentWorkers();
  }

  private read(record: BlockRef): Block {
    const block = readBlockFile(record.filePath);
    if (block.id !== record.id) {
      throw new Error(`block file ${record.filePath} holds block ${block.id}, expected ${record.id}`);
    }
    return block;
  }

  get(record: BlockRef): Block {
    let block = this.blocks.get(record.id);
    if (!block) {
      block = this.read(record);
      this.blocks.set(record.id, block);
    }
    return block;
  }

  /**
   * A unit for sale: only from a block whose root is published. Otherwise its publication
   * is started and RootNotPublishedError thrown (the store then sells nothing).
   */
  unitAt(record: BlockRef, position: number): Unit {
    if (!this.commitments.has(record.id)) {
      this.publish(record).catch(() => {}); // the next play that needs it sees the failure
      throw new RootNotPublishedError(record);
    }
    return this.get(record).unitAt(position);
  }

  /** Whether the block's root and seed hash are published. */
  isPublished(record: Pick<BlockRecord, 'id'>): boolean {
    return this.commitments.has(record.id);
  }

  /**
   * The block's commitment, once: from the file kept beside the block, or computed in
   * worker threads (and then kept beside the block for the next start). Concurrent
   * callers share one computation.
   */
  publish(record: BlockRef): Promise<BlockCommitment> {
    const known = this.commitments.get(record.id);
    if (known) return Promise.resolve(known);
    let pending = this.publishing.get(record.id);
    if (!pending) {
      pending = this.computeCommitment(record).finally(() => this.publishing.delete(record.id));
      this.publishing.set(record.id, pending);
    }
    return pending;
  }

  private async computeCommitment(record: BlockRef): Promise<BlockCommitment> {
    const block = this.get(record);
    let commitment = readCommitmentFile(record.filePath, block.id, block.header.count);
    if (!commitment) {
      commitment = await this.workers.commit(block);
      try {
        writeCommitmentFile(record.filePath, block.id, commitment);
      } catch {
        // A read-only directory: the next start computes it again.
      }
    }
    this.remember(block, commitment);
    return commitment;
  }

  /** A block's commitment, and the summary GET /api/blocks publishes of it. */
  private remember(block: Block, commitment: BlockCommitment): void {
    this.commitments.set(block.id, commitment);
    this.summaries.set(block.id, {
      root: commitment.root,
      seedHash: commitment.seedHash,
      seedHex: block.header.seedHex,
    });
  }

  /** Root, seed hash and seed of any block (a closed one is read for it, then let go). */
  async summary(record: BlockRef): Promise<BlockSummary> {
    const summary = this.summaries.get(record.id);
    if (summary) return summary;
    const held = this.blocks.has(record.id);
    await this.publish(record);
    if (!held && !this.isForSale(record)) {
      // A closed block answered for: only its summary stays in memory.
      this.blocks.delete(record.id);
      this.commitments.delete(record.id);
    }
    return this.summaries.get(record.id)!;
  }

  /** One unit's salt, leaf and path to the block's root. */
  async proof(record: BlockRef, position: number): Promise<ReturnType<typeof unitProof>> {
    const commitment = await this.publish(record);
    return unitProof(this.get(record), commitment, position);
  }

  private isForSale(record: Pick<BlockRecord, 'id'>): boolean {
    return [...this.forSale.values()].some((blocks) => blocks.some((block) => block.id === record.id));
  }

  /**
   * Reads the blocks that are on sale or queued, so the first play never waits on a
   * file, and starts publishing their commitments (open blocks first) in worker threads:
   * the server answers meanwhile, and a sale waits for its block's root (SaleRoots.ready).
   */
  preload(records: readonly BlockRecord[]): void {
    const selling = records.filter((record) => record.status !== 'closed');
    for (const record of selling) {
      this.get(record);
      const blocks = this.forSale.get(record.stakeCents) ?? [];
      if (!blocks.some((block) => block.id === record.id)) blocks.push(record);
      this.forSale.set(record.stakeCents, blocks);
    }
    const openFirst = [...selling].sort((a, b) => Number(b.status === 'open') - Number(a.status === 'open'));
    for (const record of openFirst) this.publish(record).catch(() => {}); // a play of that stake will see it
  }

  /** A block already read and verified elsewhere, and its commitment if known (tests share both across servers). */
  add(block: Block, commitment?: BlockCommitment): void {
    this.blocks.set(block.id, block);
    if (commitment) this.remember(block, commitment);
  }

  /** Stops the worker threads (a commitment under way fails). */
  close(): Promise<void> {
    return this.workers.close();
  }
}

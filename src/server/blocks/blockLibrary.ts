import { commitBlock, readBlockFile, unitProof, type Block, type BlockCommitment } from '../../emission/index.ts';
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
 * The block files on sale, read once and kept in memory (26 MB each), with their
 * commitments (about 11 MB of tree each). The file's checksum is verified on every read
 * by readBlockFile; its id must match the one the store recorded when the block was
 * loaded, or the file was swapped. A closed block is read only to answer for it, and
 * only its summary is kept.
 */
export class BlockLibrary implements UnitSource {
  private readonly blocks = new Map<string, Block>();
  private readonly commitments = new Map<string, BlockCommitment>();
  private readonly summaries = new Map<string, BlockSummary>();

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

  unitAt(record: BlockRef, position: number): Unit {
    return this.get(record).unitAt(position);
  }

  /** The commitment of a block held in memory (computed once: about a second for a full block). */
  commitment(record: BlockRef): BlockCommitment {
    let commitment = this.commitments.get(record.id);
    if (!commitment) {
      const block = this.get(record);
      commitment = commitBlock(block);
      this.commitments.set(record.id, commitment);
      this.summaries.set(record.id, {
        root: commitment.root,
        seedHash: commitment.seedHash,
        seedHex: block.header.seedHex,
      });
    }
    return commitment;
  }

  /** Root, seed hash and seed of any block; a block not held is read for it and let go. */
  summary(record: BlockRef): BlockSummary {
    let summary = this.summaries.get(record.id);
    if (!summary) {
      const held = this.blocks.get(record.id);
      if (held) {
        this.commitment(record);
        return this.summaries.get(record.id)!;
      }
      const block = this.read(record);
      const commitment = commitBlock(block);
      summary = { root: commitment.root, seedHash: commitment.seedHash, seedHex: block.header.seedHex };
      this.summaries.set(record.id, summary);
    }
    return summary;
  }

  /** One unit's salt, leaf and path to the block's root. */
  proof(record: BlockRef, position: number): ReturnType<typeof unitProof> {
    return unitProof(this.get(record), this.commitment(record), position);
  }

  /**
   * Reads the blocks that are on sale now, so the first play never waits on a file. Their
   * commitments are computed on first need (about a second of CPU each): at start they
   * would hold every instance back; the root was printed when the block was loaded.
   */
  preload(records: readonly BlockRecord[]): void {
    for (const record of records) if (record.status !== 'closed') this.get(record);
  }

  /** A block already read and verified elsewhere (tests share blocks across servers). */
  add(block: Block): void {
    this.blocks.set(block.id, block);
  }
}

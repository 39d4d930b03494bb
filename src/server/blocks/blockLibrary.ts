import { readBlockFile, type Block } from '../../emission/index.ts';
import type { Unit } from '../../rules/index.ts';
import type { BlockRecord, UnitSource } from '../store/types.ts';

/**
 * The block files on sale, read once and kept in memory (26 MB each). The file's
 * checksum is verified on every read by readBlockFile; its id must match the one the
 * store recorded when the block was loaded, or the file was swapped.
 */
export class BlockLibrary implements UnitSource {
  private readonly blocks = new Map<string, Block>();

  get(record: Pick<BlockRecord, 'id' | 'filePath'>): Block {
    let block = this.blocks.get(record.id);
    if (!block) {
      block = readBlockFile(record.filePath);
      if (block.id !== record.id) {
        throw new Error(`block file ${record.filePath} holds block ${block.id}, expected ${record.id}`);
      }
      this.blocks.set(record.id, block);
    }
    return block;
  }

  unitAt(record: Pick<BlockRecord, 'id' | 'filePath'>, position: number): Unit {
    return this.get(record).unitAt(position);
  }

  /** Reads the blocks that are on sale now, so the first play never waits on a file. */
  preload(records: readonly BlockRecord[]): void {
    for (const record of records) if (record.status !== 'closed') this.get(record);
  }

  /** A block already read and verified elsewhere (tests share blocks across servers). */
  add(block: Block): void {
    this.blocks.set(block.id, block);
  }
}

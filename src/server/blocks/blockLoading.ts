import fs from 'node:fs';
import path from 'node:path';
import {
  BlockFileError,
  auditBlock,
  commitBlock,
  UNIT_BYTES,
  generateBlock,
  readBlockFile,
  writeBlockFile,
  writeCommitmentFile,
  type Block,
} from '../../emission/index.ts';
import { BLOCK_SIZE, STAKES_CENTS, type StakeCents } from '../../rules/index.ts';
import type { BlockRecord, Store } from '../store/types.ts';

/** A block that may not be sold; the message is one line, for people. */
export class BlockRefusedError extends Error {}

export function blocksDir(dataDir: string): string {
  return path.join(dataDir, 'blocks');
}

/**
 * A block is a pure function of its stake and seed: the block its header's seed gives must
 * be this one, byte for byte. Refuses units swapped or edited with the checksums
 * recomputed, and a seed changed in the header, naming the first unit that differs.
 */
export function verifyReproducible(block: Block, source: string): void {
  const { stakeCents, seedHex, count } = block.header;
  const expected = generateBlock({ stakeCents, seedHex, count });
  const body = block.body;
  if (Buffer.compare(expected.body, body) === 0) return;
  let first = 0;
  while (first < body.length && body[first] === expected.body[first]) first++;
  throw new BlockRefusedError(
    `${source}: unit ${Math.floor(first / UNIT_BYTES)} is not the unit that the block's seed gives at that position: ` +
      'the file was altered after it was generated (units moved or edited, or the seed changed); it is not sold',
  );
}

/** The checks every block passes before it is sold: a full block whose audit is clean, generated from its seed. */
export function verifyForSale(block: Block, source: string): void {
  if (block.header.count !== BLOCK_SIZE) {
    throw new BlockRefusedError(
      `${source}: holds ${block.header.count} units; only full blocks of ${BLOCK_SIZE} units are sold`,
    );
  }
  const report = auditBlock(block);
  if (!report.ok) {
    const first = report.problems
      .slice(0, 3)
      .map((p) => (p.position >= 0 ? `unit ${p.position}: ${p.message}` : p.message))
      .join('; ');
    throw new BlockRefusedError(`${source}: the audit found ${report.problemCount} problem(s): ${first}`);
  }
  verifyReproducible(block, source);
}

export interface LoadOptions {
  /** Copy the file under DATA_DIR/blocks (default) so that the sale never depends on the original. */
  copy?: boolean;
  now?: Date;
}

/**
 * Verifies a block file (checksum, then the full audit) and puts it on sale. Throws
 * BlockFileError for an unreadable, tampered or foreign file, BlockRefusedError for a
 * block that fails the audit or is already loaded.
 */
export async function loadBlockFile(
  store: Store,
  dataDir: string,
  file: string,
  options: LoadOptions = {},
): Promise<BlockRecord> {
  let block: Block;
  try {
    block = readBlockFile(file);
  } catch (error) {
    if (error instanceof BlockFileError) throw new BlockFileError(`${file}: ${error.message}`);
    throw error;
  }
  const known = await store.listBlocks();
  if (known.some((b) => b.id === block.id)) {
    throw new BlockRefusedError(`${file}: block ${block.id.slice(0, 16)}… is already loaded`);
  }
  verifyForSale(block, file);
  let filePath = path.resolve(file);
  if (options.copy !== false) {
    fs.mkdirSync(blocksDir(dataDir), { recursive: true, mode: 0o700 });
    filePath = path.join(blocksDir(dataDir), `${block.id}.block`);
    if (path.resolve(file) !== filePath) await writeBlockFile(filePath, block);
  }
  return store.addBlock(
    { id: block.id, stakeCents: block.header.stakeCents, filePath, count: block.header.count },
    options.now ?? new Date(),
  );
}

/** First start: one fresh block per stake, generated, written, audited and put on sale. */
export async function generateStarterBlocks(
  store: Store,
  dataDir: string,
  log: (line: string) => void,
): Promise<BlockRecord[]> {
  fs.mkdirSync(blocksDir(dataDir), { recursive: true, mode: 0o700 });
  const loaded: BlockRecord[] = [];
  for (const stakeCents of STAKES_CENTS) {
    const started = Date.now();
    const block = generateBlock({ stakeCents: stakeCents as StakeCents });
    const filePath = path.join(blocksDir(dataDir), `${block.id}.block`);
    await writeBlockFile(filePath, block);
    // What is sold is the file: it passes the same checks as a file given to `ops load`.
    verifyForSale(readBlockFile(filePath), `generated block for ${stakeCents / 100} €`);
    loaded.push(await store.addBlock({ id: block.id, stakeCents, filePath, count: block.header.count }, new Date()));
    // The commitment, logged before the server sells anything: what GET /api/blocks will
    // publish; kept beside the block, so that no start computes it again.
    const commitment = commitBlock(block);
    writeCommitmentFile(filePath, block.id, commitment);
    const { root, seedHash } = commitment;
    log(
      `generated block ${loaded.length}/${STAKES_CENTS.length}: ${stakeCents / 100} € × ${BLOCK_SIZE} units ` +
        `(${block.id.slice(0, 12)}…) in ${((Date.now() - started) / 1000).toFixed(1)} s; root ${root}, seed hash ${seedHash}`,
    );
  }
  return loaded;
}

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
import type { BlockBook, BlockPool, BlockRecord, NewBlock } from '../store/types.ts';

/** A block that may not be sold; the message is one line, for people. */
export class BlockRefusedError extends Error {}

/** Where a pool's block files are kept: real blocks under DATA_DIR/blocks, demo blocks apart from them. */
export function blocksDir(dataDir: string, pool: BlockPool = 'real'): string {
  return path.join(dataDir, pool === 'real' ? 'blocks' : 'demo-blocks');
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
  store: BlockBook,
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
  // `ops load` is the one way a real block comes on sale.
  return store.addBlock(
    { id: block.id, stakeCents: block.header.stakeCents, pool: 'real', filePath, count: block.header.count },
    options.now ?? new Date(),
  );
}

/** A block file made by the server itself: what to put on sale, and its commitment. */
export interface MadeBlock {
  block: NewBlock;
  root: string;
  seedHash: string;
}

/**
 * Generates a fresh block of the stake with Article 3's lots (the one generator), writes it
 * under the pool's directory, checks the file as `ops load` checks one, and keeps its
 * commitment beside it, so that its root is known before it is sold. Seconds of CPU: the
 * server runs it before it listens (first start) or in a worker thread (demoBlockWorker).
 */
export async function makeBlockFile(stakeCents: StakeCents, dataDir: string, pool: BlockPool): Promise<MadeBlock> {
  const dir = blocksDir(dataDir, pool);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const block = generateBlock({ stakeCents });
  const filePath = path.join(dir, `${block.id}.block`);
  await writeBlockFile(filePath, block);
  // What is sold is the file: it passes the same checks as a file given to `ops load`.
  verifyForSale(readBlockFile(filePath), `generated ${pool} block for ${stakeCents / 100} €`);
  const commitment = commitBlock(block);
  writeCommitmentFile(filePath, block.id, commitment);
  const { root, seedHash } = commitment;
  return { block: { id: block.id, stakeCents, pool, filePath, count: block.header.count }, root, seedHash };
}

/**
 * One fresh block of the pool for each of `stakes` (every stake by default), generated,
 * written, audited, committed and put on sale: the demo blocks of a first start with demo
 * play on, and the real blocks `npm run portal` loads for itself.
 */
export async function generateStarterBlocks(
  store: Pick<BlockBook, 'addBlock'>,
  dataDir: string,
  log: (line: string) => void,
  pool: BlockPool,
  stakes: readonly StakeCents[] = STAKES_CENTS,
): Promise<BlockRecord[]> {
  const loaded: BlockRecord[] = [];
  for (const stakeCents of stakes) {
    const started = Date.now();
    const { block, root, seedHash } = await makeBlockFile(stakeCents, dataDir, pool);
    loaded.push(await store.addBlock(block, new Date()));
    // The commitment, logged before the server sells anything: what GET /api/blocks will publish.
    log(
      `generated ${pool} block ${loaded.length}/${stakes.length}: ${stakeCents / 100} € × ${BLOCK_SIZE} units ` +
        `(${block.id.slice(0, 12)}…) in ${((Date.now() - started) / 1000).toFixed(1)} s; root ${root}, seed hash ${seedHash}`,
    );
  }
  return loaded;
}

import fs from 'node:fs';
import path from 'node:path';
import {
  generateBlock,
  readBlockFile,
  writeBlockFile,
  type Block,
  type BlockCommitment,
} from '../../emission/index.ts';
import type { StakeCents } from '../../rules/index.ts';
import { BlockLibrary } from '../blocks/blockLibrary.ts';
import { verifyForSale } from '../blocks/blockLoading.ts';
import type { BlockPool } from '../store/types.ts';

/**
 * Full blocks for the server tests, generated once (a few seconds each) and kept under
 * .tmp/ (gitignored) so that later runs only read them. Fixed seeds: the same bytes on
 * every machine. The first five are demo blocks (demo sessions play most tests), two of
 * 1 € so that tests can cross from one to the next; then one real block per stake, for
 * portal players' money.
 */
export const TEST_BLOCK_SEEDS: readonly { stakeCents: StakeCents; seedHex: string; pool: BlockPool }[] = [
  { stakeCents: 100, seedHex: '5e1e0001', pool: 'demo' },
  { stakeCents: 100, seedHex: '5e1e0002', pool: 'demo' },
  { stakeCents: 200, seedHex: '5e1e0003', pool: 'demo' },
  { stakeCents: 300, seedHex: '5e1e0004', pool: 'demo' },
  { stakeCents: 500, seedHex: '5e1e0005', pool: 'demo' },
  { stakeCents: 100, seedHex: '5e1e0006', pool: 'real' },
  { stakeCents: 200, seedHex: '5e1e0007', pool: 'real' },
  { stakeCents: 300, seedHex: '5e1e0008', pool: 'real' },
  { stakeCents: 500, seedHex: '5e1e0009', pool: 'real' },
];

const CACHE_DIR = path.resolve('.tmp', 'test-blocks');
const LOCK_DIR = path.join(CACHE_DIR, '.lock');

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Test workers run in parallel: one generates, the others wait for it. */
async function withLock<T>(work: () => Promise<T>): Promise<T> {
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK_DIR);
      break;
    } catch {
      // A lock older than 5 minutes belongs to a worker that died.
      const stat = fs.statSync(LOCK_DIR, { throwIfNoEntry: false });
      if (stat && Date.now() - stat.mtimeMs > 300_000) fs.rmSync(LOCK_DIR, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

export interface CachedBlock {
  file: string;
  block: Block;
  pool: BlockPool;
}

let cached: Promise<CachedBlock[]> | null = null;

/** The test blocks, read (and generated when missing), in TEST_BLOCK_SEEDS order. */
export function testBlocks(): Promise<CachedBlock[]> {
  cached ??= withLock(async () => {
    const out: CachedBlock[] = [];
    for (const { stakeCents, seedHex, pool } of TEST_BLOCK_SEEDS) {
      const file = path.join(CACHE_DIR, `${stakeCents}-${seedHex}.block`);
      if (!fs.existsSync(file)) {
        const block = generateBlock({ stakeCents, seedHex });
        verifyForSale(block, file);
        await writeBlockFile(file, block);
      }
      out.push({ file, block: readBlockFile(file), pool });
    }
    return out;
  });
  return cached;
}

let published: Promise<{ block: Block; commitment: BlockCommitment }[]> | null = null;

/**
 * A library already holding the test blocks and their published commitments, shared by
 * every server of a test file. The commitments are kept beside the cached block files
 * (`FILE.commitment`, computed once like the blocks), as a server keeps its own.
 */
export async function testLibrary(): Promise<BlockLibrary> {
  published ??= (async () => {
    const first = new BlockLibrary();
    return Promise.all(
      (await testBlocks()).map(async ({ file, block }) => {
        first.add(block);
        return { block, commitment: await first.publish({ id: block.id, filePath: file }) };
      }),
    );
  })();
  const library = new BlockLibrary();
  for (const { block, commitment } of await published) library.add(block, commitment);
  return library;
}

import { BLOCK_SIZE, isStakeCents, type StakeCents } from '../rules/index.ts';
import { assembleBlock, type Block } from './block.ts';
import { writeFaces } from './faces.ts';
import { KeystreamRandom, freshSeed, parseSeedHex } from './random.ts';
import { UNIT_BYTES } from './record.ts';
import { blockPairCounts } from './split.ts';

export interface GenerateOptions {
  stakeCents: StakeCents;
  /** 1–32 bytes as hex; without it a fresh random 32-byte seed is drawn and recorded. */
  seedHex?: string;
  /**
   * Units to produce. Real blocks always use BLOCK_SIZE (the default). A smaller count is
   * a test helper: it yields exactly the first `count` units of the full block of that seed.
   */
  count?: number;
  onProgress?: (done: number, total: number) => void;
}

const PROGRESS_EVERY = 1 << 16;
// Module-local copies: imported bindings can compile to getters, too slow for the hot loop.
const FULL = BLOCK_SIZE;
const RECORD = UNIT_BYTES;

/**
 * Generates a block: the Article 3 lots of one block, put in a uniformly random sale
 * order (forward Fisher–Yates, so a prefix needs only its own steps), each unit given
 * faces that show exactly its pair. Order and faces come from two independent
 * keystreams of the seed, so the same seed always gives the same bytes.
 */
export function generateBlock(opts: GenerateOptions): Block {
  const { stakeCents, onProgress } = opts;
  if (!isStakeCents(stakeCents))
    throw new RangeError(`unknown stake ${String(stakeCents)}: use 100, 200, 300 or 500 cents`);
  const count = opts.count ?? BLOCK_SIZE;
  if (!Number.isInteger(count) || count < 1 || count > BLOCK_SIZE) {
    throw new RangeError(`count must be an integer in 1–${BLOCK_SIZE}, got ${count}`);
  }
  const seed = opts.seedHex === undefined ? freshSeed() : parseSeedHex(opts.seedHex);

  // The block's lots as pair codes, in pair-code order, then shuffled in place.
  const lots = new Uint8Array(BLOCK_SIZE);
  let filled = 0;
  blockPairCounts().forEach((n, code) => {
    lots.fill(code, filled, filled + n);
    filled += n;
  });
  const order = new KeystreamRandom(seed, 'order');
  const faces = new KeystreamRandom(seed, 'faces');
  const body = new Uint8Array(count * UNIT_BYTES);
  for (let i = 0; i < count; i++) {
    const j = i + order.belowLarge(FULL - i);
    const code = lots[j]!;
    lots[j] = lots[i]!;
    lots[i] = code;
    writeFaces(body, i * RECORD, code, faces);
    if (onProgress && ((i + 1) % PROGRESS_EVERY === 0 || i + 1 === count)) onProgress(i + 1, count);
  }
  return assembleBlock(stakeCents, seed, body);
}

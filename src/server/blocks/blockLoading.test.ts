import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNIT_BYTES, writeBlockFile, type Block } from '../../emission/index.ts';
import { assembleBlock } from '../../emission/block.ts';
import { SqliteStore } from '../store/sqlite/sqliteStore.ts';
import { testBlocks, testLibrary } from '../testing/blockCache.ts';
import { BlockRefusedError, loadBlockFile } from './blockLoading.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-blocks-'));
let block: Block;
let store: SqliteStore;
beforeAll(async () => {
  block = (await testBlocks())[1]!.block;
  store = SqliteStore.open(path.join(dir, 'data'), await testLibrary());
});
afterAll(async () => {
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes `body` under `seedHex` with both checksums recomputed: only regeneration can tell. */
async function forged(name: string, body: Uint8Array, seedHex = block.header.seedHex): Promise<string> {
  const file = path.join(dir, `${name}.block`);
  await writeBlockFile(file, assembleBlock(block.header.stakeCents, Buffer.from(seedHex, 'hex'), body));
  return file;
}

async function expectRefused(file: string, unit: number): Promise<void> {
  const refusal = loadBlockFile(store, path.join(dir, 'data'), file);
  await expect(refusal).rejects.toThrow(BlockRefusedError);
  await expect(loadBlockFile(store, path.join(dir, 'data'), file)).rejects.toThrow(
    new RegExp(`${path.basename(file)}: unit ${unit} is not the unit that the block's seed gives`),
  );
  expect(await store.listBlocks()).toEqual([]);
}

/** A unit and wheel where another segment shows the same as the cursor's: a stop can move there unseen by the audit. */
function twinSegment(): { unit: number; wheel: number; segment: number } {
  const body = block.body;
  for (let unit = 0; unit < block.header.count; unit++) {
    const word = body[unit * UNIT_BYTES + 24]! | (body[unit * UNIT_BYTES + 25]! << 8);
    for (let wheel = 0; wheel < 4; wheel++) {
      const stop = (word >> (3 * wheel)) & 7;
      const cursor = body[unit * UNIT_BYTES + wheel * 6 + stop];
      for (let segment = 0; segment < 6; segment++) {
        if (segment !== stop && body[unit * UNIT_BYTES + wheel * 6 + segment] === cursor)
          return { unit, wheel, segment };
      }
    }
  }
  throw new Error('no twin segment in the block');
}

describe('a block file that its seed does not regenerate', () => {
  it('is refused with its units swapped, though the audit passes (same lots, checksums recomputed)', async () => {
    const jackpot = Array.from({ length: block.header.count }, (_, i) => i).find(
      (i) => block.lotCentsAt(i) === 20_000 * block.header.stakeCents,
    )!;
    const body = Uint8Array.from(block.body);
    body.copyWithin(0, jackpot * UNIT_BYTES, (jackpot + 1) * UNIT_BYTES);
    body.set(block.body.subarray(0, UNIT_BYTES), jackpot * UNIT_BYTES);
    await expectRefused(await forged('swapped', body), 0);
  });

  it('is refused with a unit’s faces changed off the cursors', async () => {
    const body = Uint8Array.from(block.body);
    const unit = 1234;
    const word = body[unit * UNIT_BYTES + 24]! | (body[unit * UNIT_BYTES + 25]! << 8);
    const offCursor = ((word & 7) + 1) % 6; // wheel 1, a segment beside the cursor
    const byte = body[unit * UNIT_BYTES + offCursor]!;
    body[unit * UNIT_BYTES + offCursor] = (byte & 0xf0) | ((byte & 15) === 10 ? 9 : (byte & 15) + 1);
    await expectRefused(await forged('faces', body), unit);
  });

  it('is refused with a unit’s stop moved to a segment that shows the same', async () => {
    const { unit, wheel, segment } = twinSegment();
    const body = Uint8Array.from(block.body);
    let word = body[unit * UNIT_BYTES + 24]! | (body[unit * UNIT_BYTES + 25]! << 8);
    word = (word & ~(7 << (3 * wheel))) | (segment << (3 * wheel));
    body[unit * UNIT_BYTES + 24] = word & 255;
    body[unit * UNIT_BYTES + 25] = word >> 8;
    await expectRefused(await forged('stops', body), unit);
  });

  it('is refused with another seed in its header', async () => {
    await expectRefused(await forged('seed', Uint8Array.from(block.body), '5e1e0009'), 0);
  });
});

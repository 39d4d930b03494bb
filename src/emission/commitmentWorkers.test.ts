import { describe, expect, it } from 'vitest';
import {
  assembleCommitment,
  commitBlock,
  commitmentPart,
  commitmentSource,
  splitCommitment,
  unitProof,
} from './commitment.ts';
import { CommitmentWorkers, SMALL_BLOCK_UNITS } from './commitmentWorkers.ts';
import { generateBlock } from './generate.ts';

describe('a commitment computed in parts', () => {
  it('keeps the format: roots of fixed blocks as committed since the format was published', () => {
    // Pinned: any change to the salts, the leaf, the tree or their hashing changes these.
    const roots = [
      [200, 'c0ffee', 70, '19826fad1b1735e0cf093e68e4c712d7a02fad93216e449cac48bd15b602087a'],
      [100, 'b0b0', 1000, '52649e42c33c3ea09c2195fb6529a32732cec052186bc648f882b64e76d6883b'],
      [500, '5e1e0005', 4097, '2fa99fc635e0ed5b18e6d65250924377c360f11e5cd45172d4b277ae90ac91ee'],
    ] as const;
    for (const [stakeCents, seedHex, count, root] of roots) {
      expect(commitBlock(generateBlock({ stakeCents, seedHex, count })).root).toBe(root);
    }
  });

  it('splits a block in ranges of whole subtrees that cover it, in order', () => {
    expect(splitCommitment(1_000_000, 2)).toEqual({
      depth: 9,
      parts: [
        [0, 524_288],
        [524_288, 1_000_000],
      ],
    });
    for (const count of [1, 3, 4, 5, 17, 64, 65, 1000, 4097]) {
      for (const parts of [1, 2, 3, 4]) {
        const split = splitCommitment(count, parts);
        expect(split.parts.length).toBeLessThanOrEqual(parts);
        expect(split.parts[0]![0]).toBe(0);
        expect(split.parts.at(-1)![1]).toBe(count);
        split.parts.forEach(([from], i) => {
          expect(from % 4 ** split.depth).toBe(0);
          if (i > 0) expect(from).toBe(split.parts[i - 1]![1]);
        });
      }
    }
  });

  it('assembles the same root and paths as the whole block committed at once, for any split', () => {
    for (const count of [1, 5, 17, 64, 65, 1000, 4097]) {
      const block = generateBlock({ stakeCents: 100, seedHex: 'ab', count });
      const whole = commitBlock(block);
      const source = commitmentSource(block);
      for (const parts of [2, 3, 4]) {
        const split = splitCommitment(count, parts);
        const levels = split.parts.map(([from, to]) => commitmentPart(source, from, to, split.depth));
        const assembled = assembleCommitment(source, split, levels);
        expect(assembled.root).toBe(whole.root);
        for (const position of [0, Math.floor(count / 2), count - 1]) {
          expect(unitProof(block, assembled, position)).toEqual(unitProof(block, whole, position));
        }
      }
    }
  });

  it('in worker threads, gives the root and the proofs of the block committed in this thread', async () => {
    const block = generateBlock({ stakeCents: 300, seedHex: 'feed', count: SMALL_BLOCK_UNITS + 4097 });
    const whole = commitBlock(block);
    const workers = new CommitmentWorkers({ threads: 2 });
    try {
      const [first, second] = await Promise.all([workers.commit(block), workers.commit(block)]);
      for (const commitment of [first, second]) {
        expect(commitment.root).toBe(whole.root);
        expect(commitment.seedHash).toBe(whole.seedHash);
        expect(unitProof(block, commitment, 5000)).toEqual(unitProof(block, whole, 5000));
      }
    } finally {
      await workers.close();
    }
  });

  it('fails, and keeps working, when a part cannot be committed', async () => {
    const block = generateBlock({ stakeCents: 100, seedHex: 'beef', count: SMALL_BLOCK_UNITS * 2 });
    const body = Uint8Array.from(block.body);
    body[7000 * 26 + 25] = 0xf0 | (body[7000 * 26 + 25]! & 0x0f); // a pair code that does not exist
    const broken = { ...block, body, header: block.header };
    const workers = new CommitmentWorkers({ threads: 2 });
    try {
      await expect(workers.commit(broken)).rejects.toThrow(/unit 7000 declares an unknown pair/);
      expect((await workers.commit(block)).root).toBe(commitBlock(block).root);
    } finally {
      await workers.close();
    }
  });
});

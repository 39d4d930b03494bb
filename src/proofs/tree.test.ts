import { describe, expect, it } from 'vitest';
import { sha256 as maintainedSha256 } from '@noble/hashes/sha2.js';
import { sha256, wordsToBytes } from './sha256.ts';
import { CommitmentTree } from './tree.ts';
import { rootFromPath as climb, rootOfLeaves } from './treeCheck.ts';
import { leafGroup, levelSizes } from './treeShape.ts';

/** The checker's climb, with a maintained SHA-256: the tuned tree must agree with it. */
const rootFromPath = (leaf: Uint8Array, position: number, count: number, path: Uint8Array[][]) =>
  climb(maintainedSha256, leaf, position, count, path);

/** Leaf hashes that are hashes of their index: any leaf differs from every other. */
function leaves(count: number): Int32Array {
  const words = new Int32Array(count * 8);
  for (let i = 0; i < count; i++) {
    const hash = sha256(Uint8Array.of(i & 255, i >> 8));
    for (let w = 0; w < 8; w++) {
      words[i * 8 + w] = (hash[4 * w]! << 24) | (hash[4 * w + 1]! << 16) | (hash[4 * w + 2]! << 8) | hash[4 * w + 3]!;
    }
  }
  return words;
}

function leafBytes(all: Int32Array, position: number): Uint8Array {
  const out = new Uint8Array(32);
  wordsToBytes(all, position * 8, out, 0);
  return out;
}

function pathOf(tree: CommitmentTree, all: Int32Array, position: number, count: number): Uint8Array[][] {
  const { first, members } = leafGroup(position, count);
  return tree.path(position, all.slice(first * 8, (first + members) * 8));
}

describe('the commitment tree', () => {
  it('has levels of ⌈n / 4⌉ up to one root', () => {
    expect(levelSizes(1)).toEqual([1]);
    expect(levelSizes(5)).toEqual([5, 2, 1]);
    expect(levelSizes(1_000_000)).toEqual([1_000_000, 250_000, 62_500, 15_625, 3_907, 977, 245, 62, 16, 4, 1]);
  });

  it('hashes a group of four as SHA-256 of their bytes, and moves a lone node up unchanged', () => {
    const all = leaves(5);
    const tree = CommitmentTree.build(all, 5);
    const groupBytes = new Uint8Array(128);
    for (let i = 0; i < 4; i++) groupBytes.set(leafBytes(all, i), 32 * i);
    const node = sha256(groupBytes);
    const rootBytes = new Uint8Array(64);
    rootBytes.set(node, 0);
    rootBytes.set(leafBytes(all, 4), 32);
    expect(tree.root).toEqual(sha256(rootBytes));
  });

  it('a path leads every position of trees of 1 to 70 leaves to the root, and a changed byte anywhere does not', () => {
    for (let count = 1; count <= 70; count++) {
      const all = leaves(count);
      const tree = CommitmentTree.build(all, count);
      for (let position = 0; position < count; position++) {
        const leaf = leafBytes(all, position);
        const path = pathOf(tree, all, position, count);
        const climbed = rootFromPath(leaf, position, count, path);
        expect(climbed).toEqual({ ok: true, root: tree.root });
        if (![1, 5, 17, 70].includes(count)) continue;
        // Every byte of the leaf and of the path, one at a time.
        for (let b = 0; b < 32; b++) {
          const bad = leaf.slice();
          bad[b]! ^= 0x01;
          const result = rootFromPath(bad, position, count, path);
          expect(result.ok && result.root).not.toEqual(tree.root);
        }
        path.forEach((level, l) =>
          level.forEach((sibling, s) => {
            for (let b = 0; b < 32; b++) {
              const badPath = path.map((lv) => lv.map((h) => h.slice()));
              badPath[l]![s]![b]! ^= 0x80;
              const result = rootFromPath(leaf, position, count, badPath);
              expect(result.ok && result.root).not.toEqual(tree.root);
            }
          }),
        );
        // Another position with the same path does not lead to the same root.
        if (count > 1) {
          const other = (position + 1) % count;
          const result = rootFromPath(leaf, other, count, path);
          expect(result.ok && result.root).not.toEqual(tree.root);
        }
      }
    }
  });

  it('the checker recomputes the root of trees of 1 to 70 leaves from their leaves alone', () => {
    for (let count = 1; count <= 70; count++) {
      const all = leaves(count);
      const bytes = new Uint8Array(32 * count);
      for (let i = 0; i < count; i++) bytes.set(leafBytes(all, i), 32 * i);
      expect(rootOfLeaves(maintainedSha256, bytes, count)).toEqual(CommitmentTree.build(all, count).root);
    }
  });

  it('refuses a path of the wrong shape', () => {
    const all = leaves(10);
    const tree = CommitmentTree.build(all, 10);
    const path = pathOf(tree, all, 3, 10);
    expect(rootFromPath(leafBytes(all, 3), 3, 10, path.slice(1))).toMatchObject({ ok: false, reason: /levels/ });
    const short = [path[0]!.slice(1), ...path.slice(1)];
    expect(rootFromPath(leafBytes(all, 3), 3, 10, short)).toMatchObject({ ok: false, reason: /sibling/ });
    expect(rootFromPath(leafBytes(all, 3), 10, 10, path)).toMatchObject({ ok: false, reason: /outside/ });
  });
});

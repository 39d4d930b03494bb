import { hashWordsInto, wordsToBytes } from './sha256.ts';
import { TREE_ARITY, groupOf, levelSizes } from './treeShape.ts';

/**
 * The commitment tree over a block's leaves, in sale order, built with the tuned SHA-256
 * on 32-bit words (the server's and the emission's side; a checker recomputes it with
 * treeCheck.ts). Each node is the SHA-256 of its children's hashes, concatenated in order;
 * children go by fours (treeShape.ts): a quaternary tree costs two thirds of the hashing
 * of a binary one, a node of four hashes being two compressions plus a constant padding
 * block.
 */
const WORDS = 8;

/**
 * The next level up over `size` nodes (8 words each): one node per group of `TREE_ARITY`.
 * A part of a level may be given if it starts on a group's first node and ends on a
 * group's last one or at the level's end: its groups are then the whole level's.
 */
export function parentLevel(level: Int32Array, size: number): Int32Array {
  const parents = Math.ceil(size / TREE_ARITY);
  const out = new Int32Array(parents * WORDS);
  for (let p = 0; p < parents; p++) {
    const first = p * TREE_ARITY;
    const members = Math.min(TREE_ARITY, size - first);
    if (members === 1) out.set(level.subarray(first * WORDS, first * WORDS + WORDS), p * WORDS);
    else hashWordsInto(level, first * WORDS, members * WORDS, out, p * WORDS);
  }
  return out;
}

/**
 * A built tree. The leaves are not kept (a million of them weigh 32 MB): a path needs
 * the leaf hashes of the leaf's own group only, which the caller recomputes.
 */
export class CommitmentTree {
  private constructor(
    readonly count: number,
    /** Levels 1 … top, each node 8 big-endian words. */
    private readonly upper: Int32Array[],
    private readonly rootWords: Int32Array,
  ) {}

  /** Builds the tree over `count` leaf hashes (8 words each, in sale order). */
  static build(leaves: Int32Array, count: number): CommitmentTree {
    if (leaves.length !== count * WORDS) throw new RangeError('leaves must hold 8 words per unit');
    return CommitmentTree.complete(count, [], leaves);
  }

  /**
   * Finishes a tree whose lower levels were built elsewhere (in parts, by worker threads):
   * `lower` holds levels 1 … k whole, and `top` is the last of them (the leaves if k = 0).
   */
  static complete(count: number, lower: Int32Array[], top: Int32Array): CommitmentTree {
    const sizes = levelSizes(count);
    lower.forEach((level, i) => {
      if (level.length !== sizes[i + 1]! * WORDS)
        throw new RangeError(`level ${i + 1} must hold ${sizes[i + 1]} nodes`);
    });
    const upper = [...lower];
    let level = top;
    for (let l = lower.length; l + 1 < sizes.length; l++) {
      level = parentLevel(level, sizes[l]!);
      upper.push(level);
    }
    return new CommitmentTree(count, upper, level.slice(0, WORDS));
  }

  /** Levels 1 … top (8 words a node), as kept: to store the tree beside its block. */
  get levels(): readonly Int32Array[] {
    return this.upper;
  }

  get root(): Uint8Array {
    const out = new Uint8Array(32);
    wordsToBytes(this.rootWords, 0, out, 0);
    return out;
  }

  /**
   * The siblings of `position` at each level, leaves first. `groupLeaves` are the leaf
   * hashes of the position's group (8 words each, in order), as `leafGroup` names it.
   */
  path(position: number, groupLeaves: Int32Array): Uint8Array[][] {
    if (!Number.isInteger(position) || position < 0 || position >= this.count) {
      throw new RangeError(`position ${position} is outside the block (0–${this.count - 1})`);
    }
    const sizes = levelSizes(this.count);
    const path: Uint8Array[][] = [];
    let index = position;
    for (let l = 0; l + 1 < sizes.length; l++) {
      const { first, members } = groupOf(index, sizes[l]!);
      const nodes = l === 0 ? groupLeaves : this.upper[l - 1]!;
      const base = l === 0 ? first : 0;
      if (l === 0 && groupLeaves.length !== members * WORDS) {
        throw new RangeError(`the group of leaf ${position} has ${members} leaves`);
      }
      const siblings: Uint8Array[] = [];
      for (let m = 0; m < members; m++) {
        if (first + m === index) continue;
        const hash = new Uint8Array(32);
        wordsToBytes(nodes, (first + m - base) * WORDS, hash, 0);
        siblings.push(hash);
      }
      path.push(siblings);
      index = Math.floor(index / TREE_ARITY);
    }
    return path;
  }
}

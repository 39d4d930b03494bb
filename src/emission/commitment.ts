import { createCipheriv } from 'node:crypto';
import { stakeEuros, type StakeCents } from '../rules/index.ts';
import { LEAF_PREIMAGE_BYTES, LEAF_SYMBOL_CODES, SALT_BYTES, writeLeafPreimage } from '../proofs/leaf.ts';
import { sha256, wordsToBytes } from '../proofs/sha256.ts';
import { CommitmentTree, parentLevel } from '../proofs/tree.ts';
import { TREE_ARITY, leafGroup, levelSizes } from '../proofs/treeShape.ts';
import { hashLeafInto } from '../proofs/tunedLeaf.ts';
import { seedHashHex } from '../proofs/seed.ts';
import { toHex } from '../proofs/hex.ts';
import type { Block } from './block.ts';
import { PAIRS_BY_CODE, SYMBOL_CODES } from './codes.ts';
import { streamKey } from './random.ts';
import { UNIT_BYTES, recordWord } from './record.ts';

/**
 * A block's commitment (docs/fairness.md): the root of the tree over its units in sale
 * order, each leaf salted from the seed, and the seed's hash. Published before the first
 * sale; the seed itself only once the block is sold out or closed.
 */
export interface BlockCommitment {
  /** Hex. */
  root: string;
  /** SHA-256 of the seed, hex. */
  seedHash: string;
  tree: CommitmentTree;
}

/**
 * Units `from … from + count − 1`'s salts, 16 bytes each: the AES-256-CTR keystream of
 * the seed's `salt` stream (the same construction as the `order` and `faces` streams),
 * block `i` of the keystream for unit `i`. A salt shows nothing of the others or the seed.
 */
export function unitSalts(seed: Uint8Array, from: number, count: number): Uint8Array {
  const counter = Buffer.alloc(16);
  counter.writeUInt32BE(from, 12);
  const cipher = createCipheriv('aes-256-ctr', streamKey(seed, 'salt'), counter);
  const stream = cipher.update(Buffer.alloc(count * SALT_BYTES));
  return new Uint8Array(stream.buffer, stream.byteOffset, stream.length);
}

export function seedOf(seedHex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(seedHex, 'hex'));
}

// A leaf copies a record's face bytes as they are: both formats must code symbols alike.
if (LEAF_SYMBOL_CODES.join() !== SYMBOL_CODES.join())
  throw new Error('the leaf and the block file code symbols differently');

// Module-local copies: imported bindings can compile to getters, too slow for the hot loop.
const RECORD = UNIT_BYTES;

/** What a commitment is computed from: a block's records and the header fields they need. */
export interface CommitmentSource {
  stakeCents: StakeCents;
  seedHex: string;
  count: number;
  /** The records of units `bodyFrom` … (all of them for a whole block). */
  body: Uint8Array;
  bodyFrom: number;
}

export function commitmentSource(block: Block): CommitmentSource {
  const { stakeCents, seedHex, count } = block.header;
  return { stakeCents, seedHex, count, body: block.body, bodyFrom: 0 };
}

/** The lot each pair code gives at the source's stake, cents. */
function lotsByCode(source: CommitmentSource): number[] {
  const euros = stakeEuros(source.stakeCents);
  return PAIRS_BY_CODE.map((pair) => pair.lotPerEuroCents * euros);
}

/**
 * The leaves' preimages of units `from … from + count − 1` (53 bytes each, end to end),
 * from the records: what a checker hashes with its own SHA-256 (src/verify).
 */
export function leafPreimages(source: CommitmentSource, salts: Uint8Array, from: number, count: number): Uint8Array {
  const lotByCode = lotsByCode(source);
  const out = new Uint8Array(count * LEAF_PREIMAGE_BYTES);
  for (let i = 0; i < count; i++) {
    const position = from + i;
    const offset = (position - source.bodyFrom) * RECORD;
    const word = recordWord(source.body, offset);
    const lot = lotByCode[word >> 12];
    if (lot === undefined) throw new RangeError(`unit ${position} declares an unknown pair: run the audit`);
    const preimage = out.subarray(i * LEAF_PREIMAGE_BYTES, (i + 1) * LEAF_PREIMAGE_BYTES);
    writeLeafPreimage(
      preimage,
      position,
      source.stakeCents,
      source.body,
      offset,
      word & 0x0fff,
      lot,
      salts,
      i * SALT_BYTES,
    );
  }
  return out;
}

/** The leaf hashes of units `from … from + count − 1` (8 words each), straight from the records. */
export function leafWords(source: CommitmentSource, salts: Uint8Array, from: number, count: number): Int32Array {
  const { body, stakeCents: stake } = source;
  const lotByCode = lotsByCode(source);
  const out = new Int32Array(count * 8);
  for (let i = 0; i < count; i++) {
    const position = from + i;
    const offset = (position - source.bodyFrom) * RECORD;
    const word = recordWord(body, offset);
    const lot = lotByCode[word >> 12];
    if (lot === undefined) throw new RangeError(`unit ${position} declares an unknown pair: run the audit`);
    hashLeafInto(out, i * 8, position, stake, body, offset, word & 0x0fff, lot, salts, i * SALT_BYTES);
  }
  return out;
}

/**
 * A part of the tree, for a worker thread: the levels 1 … `depth` over units `from` …
 * `to − 1`, or their leaves when `depth` is 0. `from` must be a multiple of 4^depth, so that
 * the part's groups are the whole tree's (see `splitCommitment`).
 */
export function commitmentPart(source: CommitmentSource, from: number, to: number, depth: number): Int32Array[] {
  const salts = unitSalts(seedOf(source.seedHex), from, to - from);
  let level = leafWords(source, salts, from, to - from);
  if (depth === 0) return [level];
  const levels: Int32Array[] = [];
  let size = to - from;
  for (let l = 0; l < depth; l++) {
    level = parentLevel(level, size);
    size = Math.ceil(size / TREE_ARITY);
    levels.push(level);
  }
  return levels;
}

export interface CommitmentSplit {
  /** Levels each part builds above its leaves. */
  depth: number;
  /** [from, to) of each part, in order. */
  parts: [number, number][];
}

/**
 * Splits a block of `count` units into at most `parts` ranges of whole subtrees of
 * 4^depth leaves (the last one may be short), as even as that allows.
 */
export function splitCommitment(count: number, parts: number): CommitmentSplit {
  const sizes = levelSizes(count);
  let depth = 0;
  while (depth + 1 < sizes.length && TREE_ARITY ** (depth + 1) * parts <= count) depth++;
  const subtree = TREE_ARITY ** depth;
  const step = Math.ceil(count / parts / subtree) * subtree;
  const ranges: [number, number][] = [];
  for (let from = 0; from < count; from += step) ranges.push([from, Math.min(count, from + step)]);
  return { depth, parts: ranges };
}

/**
 * The commitment from its parts (each `commitmentPart`'s levels, in order): each level's
 * parts end to end, then the levels above them, and the seed's hash.
 */
export function assembleCommitment(
  source: Omit<CommitmentSource, 'body' | 'bodyFrom'>,
  split: CommitmentSplit,
  partLevels: Int32Array[][],
): BlockCommitment {
  const levels = Array.from({ length: Math.max(1, split.depth) }, (_, l) =>
    concatLevel(partLevels.map((part) => part[l]!)),
  );
  const tree =
    split.depth === 0
      ? CommitmentTree.build(levels[0]!, source.count)
      : CommitmentTree.complete(source.count, levels, levels[split.depth - 1]!);
  return { root: toHex(tree.root), seedHash: seedHashHex(seedOf(source.seedHex), sha256), tree };
}

function concatLevel(parts: Int32Array[]): Int32Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Int32Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Computes a block's commitment in this thread: every leaf, then the tree (levels above the leaves kept). */
export function commitBlock(block: Block): BlockCommitment {
  const source = commitmentSource(block);
  const split: CommitmentSplit = { depth: 0, parts: [[0, source.count]] };
  return assembleCommitment(source, split, [commitmentPart(source, 0, source.count, 0)]);
}

export interface UnitProof {
  position: number;
  lotCents: number;
  salt: string;
  leaf: string;
  path: string[][];
}

/** The salt, leaf and path of one unit, from the commitment's tree and the block's records. */
export function unitProof(block: Block, commitment: BlockCommitment, position: number): UnitProof {
  const { count } = block.header;
  if (!Number.isInteger(position) || position < 0 || position >= count) {
    throw new RangeError(`position ${position} is outside the block (0–${count - 1})`);
  }
  const group = leafGroup(position, count);
  const salts = unitSalts(seedOf(block.header.seedHex), group.first, group.members);
  const leaves = leafWords(commitmentSource(block), salts, group.first, group.members);
  const own = position - group.first;
  const leaf = new Uint8Array(32);
  wordsToBytes(leaves, own * 8, leaf, 0);
  const word = recordWord(block.body, position * RECORD);
  return {
    position,
    lotCents: PAIRS_BY_CODE[word >> 12]!.lotPerEuroCents * stakeEuros(block.header.stakeCents),
    salt: toHex(salts.subarray(own * SALT_BYTES, (own + 1) * SALT_BYTES)),
    leaf: toHex(leaf),
    path: commitment.tree.path(position, leaves).map((level) => level.map(toHex)),
  };
}

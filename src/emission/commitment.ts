import { createCipheriv } from 'node:crypto';
import { stakeEuros } from '../rules/index.ts';
import { LEAF_SYMBOL_CODES, SALT_BYTES, hashLeafInto } from '../proofs/leaf.ts';
import { wordsToBytes } from '../proofs/sha256.ts';
import { CommitmentTree, leafGroup } from '../proofs/tree.ts';
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

function seedOf(block: Block): Uint8Array {
  return Uint8Array.from(Buffer.from(block.header.seedHex, 'hex'));
}

// A leaf copies a record's face bytes as they are: both formats must code symbols alike.
if (LEAF_SYMBOL_CODES.join() !== SYMBOL_CODES.join())
  throw new Error('the leaf and the block file code symbols differently');

// Module-local copies: imported bindings can compile to getters, too slow for the hot loop.
const RECORD = UNIT_BYTES;

/** The leaf hashes of units `from … from + count − 1` (8 words each), straight from the records. */
export function leafWords(block: Block, salts: Uint8Array, from: number, count: number): Int32Array {
  const body = block.body;
  const stake = block.header.stakeCents;
  const euros = stakeEuros(stake);
  const lotByCode = PAIRS_BY_CODE.map((pair) => pair.lotPerEuroCents * euros);
  const out = new Int32Array(count * 8);
  for (let i = 0; i < count; i++) {
    const position = from + i;
    const offset = position * RECORD;
    const word = recordWord(body, offset);
    const lot = lotByCode[word >> 12];
    if (lot === undefined) throw new RangeError(`unit ${position} declares an unknown pair: run the audit`);
    hashLeafInto(out, i * 8, position, stake, body, offset, word & 0x0fff, lot, salts, i * SALT_BYTES);
  }
  return out;
}

/** Computes a block's commitment: every leaf, then the tree (levels above the leaves kept). */
export function commitBlock(block: Block): BlockCommitment {
  const { count } = block.header;
  const seed = seedOf(block);
  const tree = CommitmentTree.build(leafWords(block, unitSalts(seed, 0, count), 0, count), count);
  return { root: toHex(tree.root), seedHash: seedHashHex(seed), tree };
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
  const seed = seedOf(block);
  const group = leafGroup(position, count);
  const salts = unitSalts(seed, group.first, group.members);
  const leaves = leafWords(block, salts, group.first, group.members);
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

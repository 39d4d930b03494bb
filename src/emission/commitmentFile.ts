import fs from 'node:fs';
import { endianness } from 'node:os';
import { toHex } from '../proofs/hex.ts';
import { CommitmentTree } from '../proofs/tree.ts';
import { levelSizes } from '../proofs/treeShape.ts';
import type { BlockCommitment } from './commitment.ts';
import { writeAll, writeFileAtomically } from './file.ts';

/**
 * A block's commitment kept beside its file (`FILE.commitment`), so that a start does not
 * recompute it: the block id it belongs to, the root, the seed hash and the tree's levels
 * above the leaves (about 11 MB for a full block). It is a cache of a pure function of the
 * block file, as trusted as that file: a file that does not match its block, or whose
 * levels do not climb to its root, is ignored (and the commitment recomputed).
 *
 *   0   8  magic "SPCKCMT1"
 *   8  32  block id (SHA-256 of the body)
 *  40   4  unit count, little-endian
 *  44  32  root
 *  76  32  seed hash
 * 108  …   levels 1 … top, each node 8 words, little-endian 32-bit (the tree's own words)
 */
const MAGIC = 'SPCKCMT1';
const HEAD = 108;

export function commitmentFilePath(blockFile: string): string {
  return `${blockFile}.commitment`;
}

/**
 * Writes the commitment beside the block file like the block file itself (writeFileAtomically:
 * a temporary file fsynced, renamed, the directory fsynced): a crash leaves no half file, and
 * a power cut after it returns does not take it back, so a restart finds it instead of
 * recomputing every root while plays wait.
 */
export function writeCommitmentFile(blockFile: string, blockId: string, commitment: BlockCommitment): void {
  const levels = commitment.tree.levels;
  const head = Buffer.alloc(HEAD);
  head.write(MAGIC, 0, 'ascii');
  head.write(blockId, 8, 'hex');
  head.writeUInt32LE(commitment.tree.count, 40);
  head.write(commitment.root, 44, 'hex');
  head.write(commitment.seedHash, 76, 'hex');
  const body = Buffer.alloc(levels.reduce((n, level) => n + level.length * 4, 0));
  let at = 0;
  for (const level of levels) {
    for (let i = 0; i < level.length; i++, at += 4) body.writeInt32LE(level[i]!, at);
  }
  writeFileAtomically(commitmentFilePath(blockFile), (fd) => {
    writeAll(fd, head);
    writeAll(fd, body);
  });
}

/** The commitment kept beside the block file, or null when there is none that fits the block. */
export function readCommitmentFile(blockFile: string, blockId: string, count: number): BlockCommitment | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(commitmentFilePath(blockFile));
  } catch {
    return null;
  }
  const sizes = levelSizes(count).slice(1);
  const expected = HEAD + sizes.reduce((n, size) => n + size * 32, 0);
  if (
    bytes.length !== expected ||
    bytes.toString('ascii', 0, 8) !== MAGIC ||
    toHex(bytes.subarray(8, 40)) !== blockId ||
    bytes.readUInt32LE(40) !== count
  ) {
    return null;
  }
  const levels: Int32Array[] = [];
  let at = HEAD;
  for (const size of sizes) {
    let level: Int32Array;
    if (endianness() === 'LE') {
      level = new Int32Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + size * 32));
    } else {
      level = new Int32Array(size * 8);
      for (let i = 0; i < level.length; i++) level[i] = bytes.readInt32LE(at + 4 * i);
    }
    at += size * 32;
    levels.push(level);
  }
  const root = toHex(bytes.subarray(44, 76));
  // Levels 2 … top again from level 1: the kept levels must lead to the kept root.
  const check = levels.length === 0 ? null : CommitmentTree.complete(count, levels.slice(0, 1), levels[0]!);
  if (check && toHex(check.root) !== root) return null;
  const tree = levels.length === 0 ? null : CommitmentTree.complete(count, levels, levels[levels.length - 1]!);
  if (!tree) return null; // a block of one unit: nothing worth keeping
  return { root, seedHash: toHex(bytes.subarray(76, 108)), tree };
}

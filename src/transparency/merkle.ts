/**
 * The log's Merkle tree, exactly RFC 9162's (section 2.1): leaves hashed as
 * SHA-256(0x00 ‖ entry), nodes as SHA-256(0x01 ‖ left ‖ right), a tree of n leaves split
 * at the largest power of two below n. Inclusion and consistency proofs are made and
 * checked with the RFC's algorithms. Pure: the SHA-256 is passed in (node:crypto's on the
 * server and in `npm run verify`, @noble/hashes' in the browser), so that the same code
 * builds and checks the log on every side.
 */
import type { Sha256 } from '../proofs/hash.ts';

export type { Sha256 };

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;

export function logLeafHash(hash: Sha256, entry: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + entry.length);
  input[0] = LEAF_PREFIX;
  input.set(entry, 1);
  return hash(input);
}

export function logNodeHash(hash: Sha256, left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = NODE_PREFIX;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return hash(input);
}

/** The largest power of two smaller than n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The hashes of complete subtrees (2^j leaves from a multiple of 2^j) within the first
 * `upTo` leaves, by their first leaf and size: they never change once those leaves are
 * logged, so a log keeps them (the tree's left parts are always such subtrees, and a root
 * or proof then costs O(log n) new hashes). Leaves past `upTo` (one being appended) are
 * hashed but never kept.
 */
export interface SubtreeCache {
  hashes: Map<number, Uint8Array>;
  upTo: number;
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

/** MTH over leaves [from, to) given their leaf hashes. */
function subtreeHash(
  hash: Sha256,
  leaves: readonly Uint8Array[],
  from: number,
  to: number,
  cache?: SubtreeCache,
): Uint8Array {
  const n = to - from;
  if (n === 0) return hash(new Uint8Array(0));
  if (n === 1) return leaves[from]!;
  // Keyed by first leaf and size; sizes stay far below 2^26, so the key is exact.
  const complete = cache !== undefined && to <= cache.upTo && isPowerOfTwo(n);
  const slot = from * 67_108_864 + n;
  if (complete) {
    const known = cache.hashes.get(slot);
    if (known) return known;
  }
  const k = splitPoint(n);
  const node = logNodeHash(
    hash,
    subtreeHash(hash, leaves, from, from + k, cache),
    subtreeHash(hash, leaves, from + k, to, cache),
  );
  if (complete) cache.hashes.set(slot, node);
  return node;
}

/** The root of the tree over the first `size` leaf hashes (all of them by default); the empty tree's is SHA-256 of nothing. */
export function logRoot(
  hash: Sha256,
  leaves: readonly Uint8Array[],
  size = leaves.length,
  cache?: SubtreeCache,
): Uint8Array {
  if (!Number.isInteger(size) || size < 0 || size > leaves.length) throw new RangeError(`no tree of size ${size}`);
  return subtreeHash(hash, leaves, 0, size, cache);
}

/** PATH(index, D[size]): the inclusion proof of leaf `index` in the tree of the first `size` leaves. */
export function inclusionPath(
  hash: Sha256,
  leaves: readonly Uint8Array[],
  index: number,
  size: number,
  cache?: SubtreeCache,
): Uint8Array[] {
  if (!Number.isInteger(size) || size < 1 || size > leaves.length) throw new RangeError(`no tree of size ${size}`);
  if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`no leaf ${index} in ${size}`);
  const path: Uint8Array[] = [];
  const walk = (m: number, from: number, to: number): void => {
    const n = to - from;
    if (n === 1) return;
    const k = splitPoint(n);
    if (m < k) {
      walk(m, from, from + k);
      path.push(subtreeHash(hash, leaves, from + k, to, cache));
    } else {
      walk(m - k, from + k, to);
      path.push(subtreeHash(hash, leaves, from, from + k, cache));
    }
  };
  walk(index, 0, size);
  return path;
}

/** PROOF(first, D[second]): the consistency proof between the trees of the first `first` and `second` leaves. */
export function consistencyProof(
  hash: Sha256,
  leaves: readonly Uint8Array[],
  first: number,
  second: number,
  cache?: SubtreeCache,
): Uint8Array[] {
  if (!Number.isInteger(second) || second < 0 || second > leaves.length) {
    throw new RangeError(`no tree of size ${second}`);
  }
  if (!Number.isInteger(first) || first < 0 || first > second)
    throw new RangeError(`no tree of size ${first} in ${second}`);
  if (first === 0 || first === second) return [];
  const proof: Uint8Array[] = [];
  const sub = (m: number, from: number, to: number, whole: boolean): void => {
    const n = to - from;
    if (m === n) {
      if (!whole) proof.push(subtreeHash(hash, leaves, from, to, cache));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, from, from + k, whole);
      proof.push(subtreeHash(hash, leaves, from + k, to, cache));
    } else {
      sub(m - k, from + k, to, false);
      proof.push(subtreeHash(hash, leaves, from, from + k, cache));
    }
  };
  sub(first, 0, second, true);
  return proof;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** RFC 9162 2.1.3.2: whether `path` leads from leaf `index`'s hash to `root` in a tree of `size` leaves. */
export function verifyInclusion(
  hash: Sha256,
  leaf: Uint8Array,
  index: number,
  size: number,
  path: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  // Plain numbers, not bit operators: sizes may pass 2^31.
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = logNodeHash(hash, p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = logNodeHash(hash, r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(r, root);
}

/** RFC 9162 2.1.4.2: whether `proof` shows the tree of `first` leaves (root `firstRoot`) is a prefix of the tree of `second`. */
export function verifyConsistency(
  hash: Sha256,
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && equal(firstRoot, secondRoot);
  // The empty tree is a prefix of every tree.
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = logNodeHash(hash, c, fr);
      sr = logNodeHash(hash, c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = logNodeHash(hash, sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return equal(fr, firstRoot) && equal(sr, secondRoot) && sn === 0;
}

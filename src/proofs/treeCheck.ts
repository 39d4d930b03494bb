import type { Sha256 } from './hash.ts';
import { TREE_ARITY, groupOf, levelSizes } from './treeShape.ts';

/**
 * The commitment tree recomputed by a checker, with the SHA-256 it is given (hash.ts):
 * each node is the hash of its two to four children's hashes, concatenated in order.
 */

/** The node over `children` (32 bytes each): the hash of their bytes, or the lone child itself. */
function nodeOf(sha256: Sha256, children: readonly Uint8Array[]): Uint8Array {
  if (children.length === 1) return children[0]!;
  const bytes = new Uint8Array(32 * children.length);
  children.forEach((child, i) => bytes.set(child, 32 * i));
  return sha256(bytes);
}

/** The root over `count` leaf hashes, 32 bytes each, end to end in `leaves` (in sale order). */
export function rootOfLeaves(sha256: Sha256, leaves: Uint8Array, count: number): Uint8Array {
  if (leaves.length !== 32 * count || count < 1) throw new RangeError('leaves must hold 32 bytes per unit');
  let level = leaves;
  let size = count;
  while (size > 1) {
    const parents = Math.ceil(size / TREE_ARITY);
    const next = new Uint8Array(32 * parents);
    for (let p = 0; p < parents; p++) {
      const first = p * TREE_ARITY;
      // A group's children lie end to end in the level: their bytes are the node's message.
      const children = level.subarray(32 * first, 32 * Math.min(size, first + TREE_ARITY));
      next.set(children.length === 32 ? children : sha256(children), 32 * p);
    }
    level = next;
    size = parents;
  }
  return level.slice(0, 32);
}

export type RootResult = { ok: true; root: Uint8Array } | { ok: false; reason: string };

/**
 * Climbs from a leaf to the root with the siblings of a path. Refuses a path whose shape
 * is not the one the count and the position give (levels, siblings per level, 32 bytes each).
 */
export function rootFromPath(
  sha256: Sha256,
  leaf: Uint8Array,
  position: number,
  count: number,
  path: Uint8Array[][],
): RootResult {
  if (leaf.length !== 32) return { ok: false, reason: 'a leaf hash is 32 bytes' };
  if (!Number.isInteger(count) || count < 1) return { ok: false, reason: `bad count ${count}` };
  if (!Number.isInteger(position) || position < 0 || position >= count) {
    return { ok: false, reason: `position ${position} is outside the block (0–${count - 1})` };
  }
  const sizes = levelSizes(count);
  if (path.length !== sizes.length - 1) {
    return {
      ok: false,
      reason: `the path has ${path.length} levels; a block of ${count} units needs ${sizes.length - 1}`,
    };
  }
  let node = leaf;
  let index = position;
  for (let l = 0; l < path.length; l++) {
    const { first, members } = groupOf(index, sizes[l]!);
    const siblings = path[l]!;
    if (siblings.length !== members - 1) {
      return { ok: false, reason: `level ${l} of the path has ${siblings.length} sibling(s); it needs ${members - 1}` };
    }
    if (siblings.some((sibling) => sibling.length !== 32)) {
      return { ok: false, reason: `level ${l} holds a sibling that is not 32 bytes` };
    }
    const own = index - first;
    node = nodeOf(sha256, [...siblings.slice(0, own), node, ...siblings.slice(own)]);
    index = Math.floor(index / TREE_ARITY);
  }
  return { ok: true, root: Uint8Array.from(node) };
}

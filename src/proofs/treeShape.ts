/**
 * The shape of a block's commitment tree (docs/fairness.md): children go by fours; at the
 * end of a level a group of two or three is hashed the same way, and a group of one moves
 * up unchanged. So the levels, and the siblings at each level of a path, follow from the
 * count of units alone.
 */
export const TREE_ARITY = 4;

/** How many nodes each level has, from the leaves (`count`) up to the root (1). */
export function levelSizes(count: number): number[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('a tree has at least one leaf');
  const sizes = [count];
  while (sizes[sizes.length - 1]! > 1) sizes.push(Math.ceil(sizes[sizes.length - 1]! / TREE_ARITY));
  return sizes;
}

/** The group (first index, size) that node `index` of a level of `size` nodes belongs to. */
export function groupOf(index: number, size: number): { first: number; members: number } {
  const first = index - (index % TREE_ARITY);
  return { first, members: Math.min(TREE_ARITY, size - first) };
}

/** The leaves of `position`'s group: the ones whose hashes a path needs besides its siblings. */
export function leafGroup(position: number, count: number): { first: number; members: number } {
  return groupOf(position, count);
}

/**
 * A block's commitment as the verifier recomputes it from the block's units: the leaves'
 * preimages as the format lays them out (src/emission, src/proofs), hashed with node:crypto's
 * SHA-256, never with the tuned one that built the published commitment.
 */
import { commitmentSource, leafPreimages, seedOf, unitSalts, type Block } from '../emission/index.ts';
import { LEAF_PREIMAGE_BYTES, rootOfLeaves, seedHashHex, toHex } from '../proofs/index.ts';
import { nodeSha256 } from '../transparency/nodeSha256.ts';

export function recomputedCommitment(block: Block): { root: string; seedHash: string } {
  const source = commitmentSource(block);
  const seed = seedOf(source.seedHex);
  const preimages = leafPreimages(source, unitSalts(seed, 0, source.count), 0, source.count);
  const leaves = new Uint8Array(32 * source.count);
  for (let i = 0; i < source.count; i++) {
    leaves.set(nodeSha256(preimages.subarray(i * LEAF_PREIMAGE_BYTES, (i + 1) * LEAF_PREIMAGE_BYTES)), 32 * i);
  }
  return { root: toHex(rootOfLeaves(nodeSha256, leaves, source.count)), seedHash: seedHashHex(seed, nodeSha256) };
}

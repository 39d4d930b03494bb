/**
 * src/proofs: the commitment to a block's sale order and the proof of a ticket, pure
 * (no Node, no DOM), so that the server, `npm run verify` and the browser share it.
 * The format is in docs/fairness.md.
 */
export type { Sha256 } from './hash.ts';
export { fromHex, isDigestHex, toHex } from './hex.ts';
export {
  FACE_BYTES,
  LEAF_PREIMAGE_BYTES,
  LEAF_SYMBOL_CODES,
  SALT_BYTES,
  encodeFaces,
  leafHash,
  writeLeafPreimage,
} from './leaf.ts';
export { CommitmentTree } from './tree.ts';
export { TREE_ARITY, leafGroup, levelSizes } from './treeShape.ts';
export { rootFromPath, rootOfLeaves } from './treeCheck.ts';
export {
  TICKET_PROOF_FORMAT,
  verifyTicketProof,
  type SeenPlay,
  type TicketCheck,
  type TicketCheckName,
  type TicketProof,
  type TicketVerdict,
} from './ticket.ts';
export { seedHashHex } from './seed.ts';

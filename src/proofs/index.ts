/**
 * src/proofs: the commitment to a block's sale order and the proof of a ticket, pure
 * (no Node, no DOM), so that the server, `npm run verify` and the browser share it.
 * The format is in docs/fairness.md.
 */
export { sha256 } from './sha256.ts';
export { fromHex, isDigestHex, toHex } from './hex.ts';
export { FACE_BYTES, LEAF_PREIMAGE_BYTES, LEAF_SYMBOL_CODES, SALT_BYTES, encodeFaces, leafHash } from './leaf.ts';
export { CommitmentTree, TREE_ARITY, leafGroup, levelSizes, rootFromPath } from './tree.ts';
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

import { unitProof, type Block, type BlockCommitment } from '../src/emission/index.ts';
import { TICKET_PROOF_FORMAT, type TicketProof } from '../src/proofs/index.ts';

/** The ticket proof a server would hand out for the unit at `position` (a fixed playId: benches only). */
export function ticketProofOf(block: Block, commitment: BlockCommitment, position: number): TicketProof {
  const proof = unitProof(block, commitment, position);
  return {
    format: TICKET_PROOF_FORMAT,
    playId: '00000000-0000-4000-8000-000000000000',
    blockId: block.id,
    stakeCents: block.header.stakeCents,
    count: block.header.count,
    position,
    wheels: block.unitAt(position).wheels,
    lotCents: proof.lotCents,
    salt: proof.salt,
    leaf: proof.leaf,
    path: proof.path,
    root: commitment.root,
    seedHash: commitment.seedHash,
  };
}

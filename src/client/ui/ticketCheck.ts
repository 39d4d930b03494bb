import type { Play } from '../../contract/api.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { verifyLoggedTicket, type LoggedVerdict } from '../../transparency/index.ts';
import type { Strings } from '../i18n/index.ts';
import type { ProofApi } from '../net/proofApi.ts';

/** How a check of a ticket ended: checked (verdict), nothing to check, or no answer. */
export type TicketCheckOutcome =
  | { kind: 'checked'; verdict: LoggedVerdict; position: number; count: number; lotCents: number }
  | { kind: 'no-proof' }
  | { kind: 'failed'; message: string };

/**
 * « Vérifier ce ticket »: fetches the play's proof, the published blocks and the log's key,
 * then checks the proof here, in the browser (src/proofs, src/transparency), against the
 * root published for its block, the log's signed head from before the sale, and the play as
 * the history shows it. The server is trusted for nothing, nor its SHA-256: the check hashes
 * with @noble/hashes' (synchronous, as the shared checks are; WebCrypto's is async only).
 */
export async function checkTicket(api: ProofApi, token: string, play: Play, t: Strings): Promise<TicketCheckOutcome> {
  const [proof, blocks, key] = await Promise.all([api.proof(token, play.playId), api.blocks(), api.transparencyKey()]);
  if (!proof.ok) {
    if (proof.kind === 'server' && proof.code === 'NOT_FOUND') return { kind: 'no-proof' };
    return { kind: 'failed', message: proof.kind === 'network' ? t.ticketCheck.offline : t.errors[proof.code] };
  }
  if (!blocks.ok)
    return { kind: 'failed', message: blocks.kind === 'network' ? t.ticketCheck.offline : t.errors.unknown };
  // A block that is not published has no root to compare with: the check says so.
  const published = blocks.data.blocks.find((b) => b.id === proof.data.blockId)?.root ?? '';
  const verdict = await verifyLoggedTicket(proof.data, {
    publishedRoot: published,
    trustedKey: key.ok ? key.data.publicKey : null,
    seen: play,
    sha256,
  });
  return {
    kind: 'checked',
    verdict,
    position: proof.data.position,
    count: proof.data.count,
    lotCents: proof.data.lotCents,
  };
}

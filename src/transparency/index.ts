/**
 * src/transparency: the log of every block's commitment and seed (RFC 9162's tree), its
 * signed heads and a ticket's log checks, pure (the SHA-256 passed in, signatures checked
 * with WebCrypto) so that the server, `npm run verify` and the browser share it.
 * The format is in docs/fairness.md ("The log").
 */
export {
  consistencyProof,
  inclusionPath,
  logLeafHash,
  logNodeHash,
  logRoot,
  verifyConsistency,
  verifyInclusion,
  type Sha256,
  type SubtreeCache,
} from './merkle.ts';
export {
  LOG_ENTRY_FORMAT,
  encodeEntry,
  entryBytes,
  parseEntry,
  type CommitmentEntry,
  type LogEntry,
  type LogPool,
  type SeedEntry,
} from './entry.ts';
export {
  TREE_HEAD_FORMAT,
  headSigningInput,
  isSignedTreeHead,
  verifyHeadSignature,
  type SignedTreeHead,
  type TreeHead,
} from './head.ts';
export {
  verifyLoggedTicket,
  type LogCheckName,
  type LoggedCheck,
  type LoggedTicketOptions,
  type LoggedTicketProof,
  type LoggedVerdict,
  type SeenLoggedPlay,
  type TicketLog,
} from './ticketLog.ts';

import { fromHex, isDigestHex, toHex } from '../proofs/hex.ts';
import { verifyTicketProof, type SeenPlay, type TicketProof } from '../proofs/ticket.ts';
import { entryBytes, parseEntry } from './entry.ts';
import { isSignedTreeHead, verifyHeadSignature, type SignedTreeHead } from './head.ts';
import { logLeafHash, verifyInclusion, type Sha256 } from './merkle.ts';

/** What a ticket's proof carries of the log (docs/fairness.md, "A ticket's proof"). */
export interface TicketLog {
  /** The index of the block's commitment entry in the log. */
  index: number;
  /** That entry's text, as its leaf holds it. */
  entry: string;
  /** A head signed before the sale, whose tree holds the entry. */
  head: SignedTreeHead;
  /** The entry's inclusion proof in that head's tree, hex, leaf to root (RFC 9162 PATH). */
  inclusion: string[];
  /** The log's public key as the server gives it (GET /api/transparency/key). */
  publicKey: string;
}

export interface LoggedTicketProof extends TicketProof {
  /** When the unit was sold, ISO 8601 (the play's createdAt). */
  playedAt: string;
  log: TicketLog | null;
}

export type LogCheckName = 'entry' | 'inclusion' | 'signature' | 'key' | 'head time' | 'played at';

export interface LoggedCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface LoggedVerdict {
  ok: boolean;
  checks: LoggedCheck[];
}

/** What the player saw, to compare with the proof: the play as the game recorded it. */
export interface SeenLoggedPlay extends SeenPlay {
  createdAt?: string;
}

export interface LoggedTicketOptions {
  /** The block's root as published (null: not compared). */
  publishedRoot: string | null;
  /** The log's key as the checker trusts it (null: the proof's own key, and the verdict says so). */
  trustedKey: string | null;
  seen?: SeenLoggedPlay;
  sha256: Sha256;
}

function logShapeProblem(log: Partial<TicketLog> | null | undefined): string | null {
  if (log === null || typeof log !== 'object') return 'the proof carries no log entry';
  if (!Number.isSafeInteger(log.index) || log.index! < 0) return 'the log index is not a whole number';
  if (typeof log.entry !== 'string') return 'the log entry is not text';
  if (!isSignedTreeHead(log.head)) return 'the head is not a signed tree head';
  if (!Array.isArray(log.inclusion) || !log.inclusion.every(isDigestHex))
    return 'the inclusion proof is not hex hashes';
  if (typeof log.publicKey !== 'string' || !/^[0-9a-f]{64}$/.test(log.publicKey))
    return 'the public key is not 32 bytes of hex';
  return null;
}

/**
 * A ticket's proof with its log part: the unit's checks (src/proofs), then that the log's
 * entry is this block's commitment (id, stake, count, root, seed hash), that it is in the
 * signed head's tree, the head's signature, that the head was signed before the play, and
 * (with `seen`) that the play is the one the player saw, at the time they saw it.
 */
export async function verifyLoggedTicket(input: unknown, options: LoggedTicketOptions): Promise<LoggedVerdict> {
  const unitVerdict = verifyTicketProof(input, options.publishedRoot, options.sha256, options.seen);
  const checks: LoggedCheck[] = [...unitVerdict.checks];
  const done = () => ({ ok: checks.every((c) => c.ok), checks });
  if (!unitVerdict.checks.some((c) => c.name === 'shape' && c.ok)) return done();
  const proof = input as LoggedTicketProof;
  const playedAt = typeof proof.playedAt === 'string' ? Date.parse(proof.playedAt) : NaN;
  if (Number.isNaN(playedAt)) {
    checks.push({ name: 'entry', ok: false, detail: 'the proof gives no time of sale (playedAt)' });
    return done();
  }
  const problem = logShapeProblem(proof.log);
  if (problem) {
    checks.push({ name: 'entry', ok: false, detail: problem });
    return done();
  }
  const log = proof.log!;

  const entry = parseEntry(log.entry);
  const entryOk =
    entry !== null &&
    entry.kind === 'commitment' &&
    entry.blockId === proof.blockId &&
    entry.stakeCents === proof.stakeCents &&
    entry.count === proof.count &&
    entry.root === proof.root.toLowerCase() &&
    entry.seedHash === proof.seedHash.toLowerCase();
  checks.push({
    name: 'entry',
    ok: entryOk,
    detail: entryOk
      ? `log entry ${log.index} is the block's commitment (root ${entry.root})`
      : entry === null || entry.kind !== 'commitment'
        ? 'the log entry is not a block commitment'
        : `the log entry commits to another block or root (${entry.blockId.slice(0, 16)}…, root ${entry.root})`,
  });

  const leaf = logLeafHash(options.sha256, entryBytes(log.entry));
  const included = verifyInclusion(
    options.sha256,
    leaf,
    log.index,
    log.head.treeSize,
    log.inclusion.map((h) => fromHex(h)!),
    fromHex(log.head.rootHash)!,
  );
  checks.push({
    name: 'inclusion',
    ok: included,
    detail: included
      ? `the entry (leaf ${toHex(leaf)}) is in the tree of ${log.head.treeSize} entries whose root is ${log.head.rootHash}`
      : `the inclusion proof does not lead from entry ${log.index} to the head's root ${log.head.rootHash}`,
  });

  const signed = await verifyHeadSignature(log.head, log.publicKey);
  checks.push({
    name: 'signature',
    ok: signed,
    detail: signed ? `the head is signed by the log's key ${log.publicKey}` : 'the head’s signature is not the key’s',
  });
  if (options.trustedKey !== null) {
    const keyOk = options.trustedKey.toLowerCase() === log.publicKey;
    checks.push({
      name: 'key',
      ok: keyOk,
      detail: keyOk ? 'the key is the one published' : `the proof's key ${log.publicKey} is not the one published`,
    });
  }

  const before = log.head.timestamp < playedAt;
  checks.push({
    name: 'head time',
    ok: before,
    detail: before
      ? `the head was signed at ${new Date(log.head.timestamp).toISOString()}, before the sale at ${proof.playedAt}`
      : `the head was signed at ${new Date(log.head.timestamp).toISOString()}, not before the sale at ${proof.playedAt}`,
  });
  if (options.seen?.createdAt !== undefined) {
    const sameTime = Date.parse(options.seen.createdAt) === playedAt;
    checks.push({
      name: 'played at',
      ok: sameTime,
      detail: sameTime
        ? 'the sale is at the time the play shows'
        : `the proof's sale time ${proof.playedAt} is not the play's ${options.seen.createdAt}`,
    });
  }
  return done();
}

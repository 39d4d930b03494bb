import { evaluate, isStakeCents, unitProblems, type Unit, type Wheel } from '../rules/index.ts';
import { fromHex, isDigestHex, toHex } from './hex.ts';
import type { Sha256 } from './hash.ts';
import { SALT_BYTES, leafHash } from './leaf.ts';
import { rootFromPath } from './treeCheck.ts';

/** The proof that comes with a ticket (`GET /api/plays/{playId}/proof`), as saved by a player. */
export interface TicketProof {
  format: string;
  playId: string;
  /** The block's id: the SHA-256 of its file's body. */
  blockId: string;
  stakeCents: number;
  /** Units in the block. */
  count: number;
  /** The unit's place in the block's sale order, from 0. */
  position: number;
  wheels: Wheel[];
  /** The lot the block declares for this unit, cents. */
  lotCents: number;
  /** The unit's salt, hex. */
  salt: string;
  /** The leaf hash, hex. */
  leaf: string;
  /** Sibling hashes (hex) per level, from the leaves up. */
  path: string[][];
  /** The block's commitment root, hex, published before its first sale. */
  root: string;
  /** SHA-256 of the block's seed, published with the root. */
  seedHash: string;
}

export const TICKET_PROOF_FORMAT = 'spincake-ticket-proof/1';

/**
 * What was checked, in order: the proof is well-formed; the unit's faces give the lot it
 * declares (the rules); the unit, salt and position give the leaf; the path leads from
 * the leaf to the root; the root is the one published; the unit is the play the player saw.
 */
export type TicketCheckName = 'shape' | 'lot' | 'leaf' | 'path' | 'published' | 'play';

export interface TicketCheck {
  name: TicketCheckName;
  ok: boolean;
  /** One line, in English, for the command line and the logs; the game words it itself. */
  detail: string;
}

export interface TicketVerdict {
  ok: boolean;
  checks: TicketCheck[];
}

/** What the player saw of the play, to compare with the proof's unit. */
export interface SeenPlay {
  playId: string;
  wheels: Wheel[];
  winCents: number;
}

function shapeProblem(proof: Partial<TicketProof>): string | null {
  if (proof.format !== TICKET_PROOF_FORMAT) return `not a ticket proof (format ${JSON.stringify(proof.format)})`;
  if (!isStakeCents(proof.stakeCents)) return 'the stake is not 100, 200, 300 or 500 cents';
  if (!Number.isSafeInteger(proof.count) || proof.count! < 1) return 'the block size is not a positive integer';
  if (!Number.isSafeInteger(proof.position) || proof.position! < 0 || proof.position! >= proof.count!) {
    return 'the position is not inside the block';
  }
  if (!Number.isSafeInteger(proof.lotCents) || proof.lotCents! < 0) return 'the lot is not a whole number of cents';
  const salt = typeof proof.salt === 'string' ? fromHex(proof.salt) : null;
  if (!salt || salt.length !== SALT_BYTES) return `the salt is not ${SALT_BYTES} bytes of hex`;
  if (!isDigestHex(proof.leaf)) return 'the leaf is not a SHA-256 in hex';
  if (!isDigestHex(proof.root)) return 'the root is not a SHA-256 in hex';
  if (!Array.isArray(proof.path) || !proof.path.every((l) => Array.isArray(l) && l.every(isDigestHex))) {
    return 'the path is not a list of levels of SHA-256 hashes in hex';
  }
  const unit = { stakeCents: proof.stakeCents, wheels: proof.wheels };
  const problems = unitProblems(unit).filter((p) => !p.startsWith('cursors show'));
  return problems.length > 0 ? `the unit is malformed: ${problems[0]}` : null;
}

function sameWheels(a: readonly Wheel[], b: readonly Wheel[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (wheel, w) =>
        wheel.stop === b[w]!.stop &&
        wheel.segments.length === b[w]!.segments.length &&
        wheel.segments.every(
          (s, i) => s.symbol === b[w]!.segments[i]!.symbol && s.points === b[w]!.segments[i]!.points,
        ),
    )
  );
}

/**
 * Checks a ticket's proof without trusting whoever sent it. `publishedRoot` is the root
 * as published for the block (null: not compared, the verdict says so); `sha256` the
 * checker's own (hash.ts); `seen` is the play as the game showed it (absent: not compared).
 */
export function verifyTicketProof(
  input: unknown,
  publishedRoot: string | null,
  sha256: Sha256,
  seen?: SeenPlay,
): TicketVerdict {
  const proof = (typeof input === 'object' && input !== null ? input : {}) as Partial<TicketProof>;
  const checks: TicketCheck[] = [];
  const problem = shapeProblem(proof);
  if (problem) return { ok: false, checks: [{ name: 'shape', ok: false, detail: problem }] };
  const p = proof as TicketProof;
  checks.push({ name: 'shape', ok: true, detail: `unit ${p.position} of a block of ${p.count}` });

  const unit: Unit = { stakeCents: p.stakeCents as Unit['stakeCents'], wheels: p.wheels };
  const rulesProblems = unitProblems(unit);
  const shown = evaluate(unit);
  const lotOk = rulesProblems.length === 0 && shown.winCents === p.lotCents;
  checks.push({
    name: 'lot',
    ok: lotOk,
    detail: lotOk
      ? `the cursors show ${shown.bells} bell(s) and ${shown.points} points: ${p.lotCents} cents, the lot declared`
      : rulesProblems.length > 0
        ? rulesProblems[0]!
        : `the cursors show ${shown.winCents} cents, the unit declares ${p.lotCents}`,
  });

  const leaf = toHex(
    leafHash(
      {
        position: p.position,
        stakeCents: unit.stakeCents,
        unit,
        lotCents: p.lotCents,
        salt: fromHex(p.salt)!,
      },
      sha256,
    ),
  );
  const leafOk = leaf === p.leaf.toLowerCase();
  checks.push({
    name: 'leaf',
    ok: leafOk,
    detail: leafOk ? `the unit hashes to the leaf ${leaf}` : `the unit hashes to ${leaf}, not to the leaf ${p.leaf}`,
  });

  const climbed = rootFromPath(
    sha256,
    fromHex(leaf)!,
    p.position,
    p.count,
    p.path.map((level) => level.map((h) => fromHex(h)!)),
  );
  const reached = climbed.ok ? toHex(climbed.root) : null;
  const pathOk = reached === p.root.toLowerCase();
  checks.push({
    name: 'path',
    ok: pathOk,
    detail: !climbed.ok
      ? climbed.reason
      : pathOk
        ? `the path leads from the leaf to the root ${reached}`
        : `the path leads to ${reached}, not to the root ${p.root}`,
  });

  if (publishedRoot !== null) {
    const publishedOk = publishedRoot.toLowerCase() === p.root.toLowerCase();
    checks.push({
      name: 'published',
      ok: publishedOk,
      detail: publishedOk
        ? `the root is the one published for the block`
        : `the root ${p.root} is not the one published (${publishedRoot})`,
    });
  }
  if (seen) {
    const playOk = seen.playId === p.playId && seen.winCents === p.lotCents && sameWheels(seen.wheels, p.wheels);
    checks.push({
      name: 'play',
      ok: playOk,
      detail: playOk ? 'the unit is the play shown' : 'the unit is not the play shown (wheels, stops or win differ)',
    });
  }
  return { ok: checks.every((c) => c.ok), checks };
}

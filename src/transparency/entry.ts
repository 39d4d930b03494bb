/**
 * An entry of the log, as its leaf holds it: one line of UTF-8 text, fields separated by
 * one space, no trailing newline (docs/fairness.md, "The log"):
 *
 *   spincake-log/1 commitment BLOCK_ID POOL STAKE_CENTS COUNT ROOT SEED_HASH TIMESTAMP
 *   spincake-log/1 seed BLOCK_ID SEED TIMESTAMP
 *
 * Hex is lowercase, numbers are decimal without leading zeros, TIMESTAMP is Unix
 * milliseconds. A block's commitment is logged when it is put on sale, before its first
 * unit is sold; its seed once nothing of it is left to sell.
 */

export const LOG_ENTRY_FORMAT = 'spincake-log/1';

export type LogPool = 'real' | 'demo';

export interface CommitmentEntry {
  kind: 'commitment';
  blockId: string;
  pool: LogPool;
  stakeCents: number;
  count: number;
  root: string;
  seedHash: string;
  timestamp: number;
}

export interface SeedEntry {
  kind: 'seed';
  blockId: string;
  seed: string;
  timestamp: number;
}

export type LogEntry = CommitmentEntry | SeedEntry;

const DIGEST = /^[0-9a-f]{64}$/;
const SEED = /^(?:[0-9a-f]{2}){1,32}$/;
const NATURAL = /^(?:0|[1-9][0-9]{0,15})$/;

export function encodeEntry(entry: LogEntry): string {
  const fields =
    entry.kind === 'commitment'
      ? [entry.blockId, entry.pool, entry.stakeCents, entry.count, entry.root, entry.seedHash, entry.timestamp]
      : [entry.blockId, entry.seed, entry.timestamp];
  const text = [LOG_ENTRY_FORMAT, entry.kind, ...fields].join(' ');
  if (parseEntry(text) === null) throw new RangeError(`not a well-formed log entry: ${text}`);
  return text;
}

/** The entry a leaf's text holds; null for anything not exactly in the format. */
export function parseEntry(text: unknown): LogEntry | null {
  if (typeof text !== 'string') return null;
  const fields = text.split(' ');
  if (fields[0] !== LOG_ENTRY_FORMAT) return null;
  const number = (field: string | undefined) => (field !== undefined && NATURAL.test(field) ? Number(field) : null);
  if (fields[1] === 'commitment' && fields.length === 9) {
    const [, , blockId, pool, stake, count, root, seedHash, time] = fields as [string, ...string[]];
    const stakeCents = number(stake);
    const units = number(count);
    const timestamp = number(time);
    if (
      !DIGEST.test(blockId!) ||
      (pool !== 'real' && pool !== 'demo') ||
      !DIGEST.test(root!) ||
      !DIGEST.test(seedHash!)
    )
      return null;
    if (stakeCents === null || units === null || units < 1 || timestamp === null) return null;
    return {
      kind: 'commitment',
      blockId: blockId!,
      pool,
      stakeCents,
      count: units,
      root: root!,
      seedHash: seedHash!,
      timestamp,
    };
  }
  if (fields[1] === 'seed' && fields.length === 5) {
    const [, , blockId, seed, time] = fields as [string, ...string[]];
    const timestamp = number(time);
    if (!DIGEST.test(blockId!) || !SEED.test(seed!) || timestamp === null) return null;
    return { kind: 'seed', blockId: blockId!, seed: seed!, timestamp };
  }
  return null;
}

export function entryBytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

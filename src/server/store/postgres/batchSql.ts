import type pg from 'pg';
import type { BatchWrites } from '../batchPlan.ts';

/**
 * One statement stores a whole decided batch: plays, ledger entries, balances and the
 * block cursors that did not open (those go in a second statement, after the closes).
 */
export const WRITE_BATCH_SQL = `WITH new_plays AS (
    INSERT INTO plays (play_id, player_id, stake_cents, block_id, position, fixture, unit_code, bells, points,
                       jeu1_cents, jeu2_cents, win_cents, balance_before_cents, balance_after_cents, created_at, pool)
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::int[], $6::bool[], $7::text[],
                         $8::int[], $9::int[], $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[],
                         $14::bigint[], $15::text[], $27::text[])
    RETURNING 1
  ), new_entries AS (
    INSERT INTO entries (txn, account, amount_cents, play_id, kind, created_at)
    SELECT * FROM unnest($16::text[], $17::text[], $18::bigint[], $19::text[], $20::text[], $21::text[])
    RETURNING 1
  ), balances AS (
    UPDATE players p SET balance_cents = u.balance
    FROM unnest($22::text[], $23::bigint[]) AS u(id, balance) WHERE p.id = u.id
    RETURNING 1
  ), cursors AS (
    UPDATE blocks b SET next_position = u.next, status = u.status
    FROM unnest($24::text[], $25::int[], $26::text[]) AS u(id, next, status) WHERE b.id = u.id
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM new_plays) AS plays, (SELECT count(*) FROM new_entries) AS entries,
         (SELECT count(*) FROM balances) AS players, (SELECT count(*) FROM cursors) AS blocks`;

export function writeBatchParams(writes: BatchWrites, blocks: [string, { nextPosition: number; status: string }][]) {
  const p = writes.plays.map((w) => w.play);
  const e = writes.entries;
  return [
    p.map((r) => r.playId),
    p.map((r) => r.playerId),
    p.map((r) => r.stakeCents),
    p.map((r) => r.blockId),
    p.map((r) => r.position),
    p.map((r) => r.fixture),
    writes.plays.map((w) => w.unitCode),
    p.map((r) => r.bells),
    p.map((r) => r.points),
    p.map((r) => r.jeu1WinCents),
    p.map((r) => r.jeu2WinCents),
    p.map((r) => r.winCents),
    p.map((r) => r.balanceBeforeCents),
    p.map((r) => r.balanceAfterCents),
    p.map((r) => r.createdAt),
    e.map((r) => r.txn),
    e.map((r) => r.account),
    e.map((r) => r.amountCents),
    e.map((r) => r.playId),
    e.map((r) => r.kind),
    e.map((r) => r.createdAt),
    [...writes.balances.keys()],
    [...writes.balances.values()],
    blocks.map(([id]) => id),
    blocks.map(([, b]) => b.nextPosition),
    blocks.map(([, b]) => b.status),
    p.map((r) => r.pool),
  ];
}

type Settled<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/**
 * Awaits statements sent together on one pipelined connection. When one fails, the ones
 * after it fail too (the transaction is aborted): the first failure is the cause, so it
 * is the one thrown, once every answer is in.
 */
export async function settleInOrder<T extends readonly Promise<unknown>[]>(statements: T): Promise<Settled<T>> {
  const settled = await Promise.allSettled(statements);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as Settled<T>;
}

/**
 * Hands the statements that `send` issues to the socket as one write. The pipelined
 * connection sends each statement as soon as it is queried, in a write (a system call,
 * and a wake-up of PostgreSQL) of its own; corked, a batch's round trip is one write.
 */
export function sentTogether<T>(client: pg.PoolClient, send: () => T): T {
  const stream = (client as unknown as { connection?: { stream?: NodeJS.WritableStream & Partial<CorkableStream> } })
    .connection?.stream;
  stream?.cork?.();
  try {
    return send();
  } finally {
    stream?.uncork?.();
  }
}

interface CorkableStream {
  cork(): void;
  uncork(): void;
}

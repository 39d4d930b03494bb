import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { WalDatabase, type WalDatabaseOptions } from '../durability/walDatabase.ts';
import { FlushTrigger, type WalSync } from '../durability/walSync.ts';
import {
  canonicalRequest,
  type BalanceRequest,
  type BetRequest,
  type RollbackRequest,
  type StatementEntry,
  type StatementKind,
  type WalletCall,
  type WalletRequests,
  type WinRequest,
} from '../walletApi/index.ts';

/**
 * The reference operator wallet's books, in one SQLite file: accounts, the transaction log,
 * every answered request (idempotency) and the state of every bet. The contract's calls that
 * arrive together are handled in one immediate transaction, each in a savepoint of its own
 * (`handleBatch`); an administration call is one transaction. Group-committed as
 * docs/durability.md tells: the server sends no answer before `durable()` resolves. Balances
 * can never go below zero (checked, and a CHECK constraint besides).
 */

export interface Account {
  playerId: string;
  balanceCents: number;
  blocked: boolean;
  /** Responsible-gaming limit: the most the player may stake per UTC day; null for none. */
  dailyStakeLimitCents: number | null;
  createdAt: string;
}

export interface AccountView extends Account {
  /** Stakes of today (UTC) that stand: bets not rolled back. */
  stakedTodayCents: number;
}

/** Refusals the fault mode may force on a new bet. */
export const FORCED_REFUSALS = ['LIMIT_REACHED', 'PLAYER_BLOCKED', 'INSUFFICIENT_FUNDS'] as const;
export type ForcedRefusal = (typeof FORCED_REFUSALS)[number];

/**
 * What the wallet answers a call: `answer` is HTTP 200 with this raw JSON (stored answers
 * are given back byte for byte); `conflict` is HTTP 409, outside the contract (the caller
 * contradicted what the wallet recorded for that bet; nothing changed, nothing stored).
 */
export type Handled =
  { kind: 'answer'; raw: string; replayed: boolean } | { kind: 'conflict'; raw: string; reason: string };

/** One contract call to handle; `refuse` (fault mode) makes a new bet answer that refusal instead of being taken. */
export interface CallItem<C extends WalletCall = WalletCall> {
  call: C;
  request: WalletRequests[C];
  refuse?: ForcedRefusal;
}

export type AdminResult<T> = { ok: true; value: T } | { ok: false; status: string; reason: string };

export interface StatementPage {
  transactions: StatementEntry[];
  next: number | null;
}

export const STATEMENT_DEFAULT_LIMIT = 10_000;
export const STATEMENT_MAX_LIMIT = 100_000;

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE accounts (
  player_id TEXT PRIMARY KEY,
  balance_cents INTEGER NOT NULL CHECK (balance_cents >= 0),
  blocked INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1)),
  daily_stake_limit_cents INTEGER CHECK (daily_stake_limit_cents IS NULL OR daily_stake_limit_cents >= 0),
  created_at TEXT NOT NULL
);
CREATE TABLE transactions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('bet', 'win', 'rollback', 'deposit', 'withdrawal')),
  request_id TEXT NOT NULL UNIQUE,
  player_id TEXT NOT NULL,
  round_id TEXT,
  bet_request_id TEXT,
  amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
  moved_cents INTEGER NOT NULL,
  balance_after_cents INTEGER NOT NULL CHECK (balance_after_cents >= 0),
  created_at TEXT NOT NULL
);
CREATE INDEX transactions_by_time ON transactions (created_at, seq);
CREATE TABLE requests (
  request_id TEXT PRIMARY KEY,
  call TEXT NOT NULL,
  body TEXT NOT NULL,
  answer TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE bets (
  request_id TEXT PRIMARY KEY,
  player_id TEXT NOT NULL,
  round_id TEXT NOT NULL,
  amount_cents INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'won', 'rolled_back', 'rolled_back_unseen')),
  settled_by TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX bets_by_player_day ON bets (player_id, created_at);
`;

interface AccountRow {
  player_id: string;
  balance_cents: number;
  blocked: number;
  daily_stake_limit_cents: number | null;
  created_at: string;
}

interface BetRow {
  request_id: string;
  player_id: string;
  round_id: string;
  amount_cents: number;
  state: 'open' | 'won' | 'rolled_back' | 'rolled_back_unseen';
}

interface TransactionRow {
  seq: number;
  kind: StatementKind;
  request_id: string;
  player_id: string;
  round_id: string | null;
  bet_request_id: string | null;
  amount_cents: number;
  moved_cents: number;
  balance_after_cents: number;
  created_at: string;
}

/** The transaction id shown to the game: derived from the log position, never reused. */
export function transactionId(seq: number): string {
  return `wtx-${seq}`;
}

function toAccount(row: AccountRow): Account {
  return {
    playerId: row.player_id,
    balanceCents: row.balance_cents,
    blocked: row.blocked === 1,
    dailyStakeLimitCents: row.daily_stake_limit_cents,
    createdAt: row.created_at,
  };
}

function toEntry(row: TransactionRow): StatementEntry {
  return {
    seq: row.seq,
    transactionId: transactionId(row.seq),
    kind: row.kind,
    requestId: row.request_id,
    playerId: row.player_id,
    roundId: row.round_id,
    betRequestId: row.bet_request_id,
    amountCents: row.amount_cents,
    movedCents: row.moved_cents,
    balanceAfterCents: row.balance_after_cents,
    createdAt: row.created_at,
  };
}

function utcDay(now: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { start: start.toISOString(), end: new Date(start.getTime() + 86_400_000).toISOString() };
}

export interface LedgerOptions extends WalDatabaseOptions {
  /** The clock (tests move it to cross a day or a statement period). */
  now?: () => Date;
}

export class WalletLedger {
  private readonly now: () => Date;

  private readonly db: Database.Database;
  private readonly wal: WalSync;
  private readonly statements = new Map<string, Database.Statement>();
  /** Runs its argument in a transaction, or in a savepoint when one is open already (made once: making one costs). */
  private readonly transaction: Database.Transaction<(work: () => unknown) => unknown>;

  private constructor(
    private readonly walDatabase: WalDatabase,
    options: LedgerOptions,
  ) {
    this.db = walDatabase.db;
    this.wal = walDatabase.wal;
    this.now = options.now ?? (() => new Date());
    this.transaction = this.db.transaction((work) => work());
  }

  /** A statement prepared once per text (preparing costs more than running these small ones). */
  private prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as unknown as Database.Statement<P, R>;
  }

  /** Resolves once every commit made so far is on disk; answers wait for it. */
  durable(): Promise<void> {
    return this.wal.durable();
  }

  /** The trigger of a group commit of these books: `flush` runs when it is due (see FlushTrigger). */
  flushTrigger(flush: () => void): FlushTrigger {
    return new FlushTrigger(this.wal, flush);
  }

  /** Runs `work` in one immediate transaction, counted for the next WAL fsync. */
  private write<T>(work: () => T): T {
    try {
      return this.transaction.immediate(work) as T;
    } finally {
      // Counted even when nothing was written: an fsync too many costs little, one too few an answer.
      this.wal.committed();
    }
  }

  /** Opens (creating if needed) the wallet's SQLite file. */
  static open(file: string, options: LedgerOptions = {}): WalletLedger {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const walDatabase = new WalDatabase(file, options);
    const db = walDatabase.db;
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      void walDatabase.close();
      throw new Error(`${file} was made by a newer wallet (schema ${version}, this one knows ${SCHEMA_VERSION})`);
    }
    if (version === 0) {
      db.transaction(() => {
        db.exec(SCHEMA);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }).immediate();
    }
    return new WalletLedger(walDatabase, options);
  }

  /** Closes the books; with a checkpoint worker, once it has stopped. */
  close(): Promise<void> {
    return this.walDatabase.close();
  }

  // ---- the contract's calls -------------------------------------------------------------

  /**
   * Calls of the contract, in order, in one transaction: one commit and one WAL fsync for
   * all. Each runs in a savepoint of its own, so one that fails (its Error in its place)
   * is undone alone and the others stand. If the transaction itself fails, this throws and
   * nothing of the batch is kept. A stored answer is never changed by a forced refusal.
   */
  handleBatch(items: readonly CallItem[]): (Handled | Error)[] {
    return this.write(() =>
      items.map((item) => {
        try {
          // Inside the batch's transaction: a savepoint.
          return this.transaction(() => this.handleOne(item)) as Handled;
        } catch (error) {
          // SQLite may have ended the whole transaction (disk full, I/O error): then nothing holds.
          if (!this.db.inTransaction) throw error;
          return error instanceof Error ? error : new Error(String(error));
        }
      }),
    );
  }

  private handleOne({ call, request, refuse }: CallItem): Handled {
    const body = JSON.stringify(canonicalRequest(call, request));
    const seen = this.prepare<[string], { call: string; body: string; answer: string }>(
      'SELECT call, body, answer FROM requests WHERE request_id = ?',
    ).get(request.requestId);
    if (seen) {
      if (seen.call === call && seen.body === body) return { kind: 'answer', raw: seen.answer, replayed: true };
      return { kind: 'answer', raw: JSON.stringify({ status: 'REQUEST_ID_REUSED' }), replayed: false };
    }
    const outcome = this.decide(call, request, refuse);
    if ('conflict' in outcome) {
      return {
        kind: 'conflict',
        reason: outcome.conflict,
        raw: JSON.stringify({ status: 'CONFLICT', reason: outcome.conflict }),
      };
    }
    const raw = JSON.stringify(outcome.answer);
    this.prepare('INSERT INTO requests (request_id, call, body, answer, created_at) VALUES (?, ?, ?, ?, ?)').run(
      request.requestId,
      call,
      body,
      raw,
      this.now().toISOString(),
    );
    return { kind: 'answer', raw, replayed: false };
  }

  private decide(
    call: WalletCall,
    request: WalletRequests[WalletCall],
    refuse: ForcedRefusal | undefined,
  ): { answer: object } | { conflict: string } {
    switch (call) {
      case 'balance':
        return { answer: this.balance(request as BalanceRequest) };
      case 'bet':
        return { answer: this.bet(request as BetRequest, refuse) };
      case 'win':
        return this.win(request as WinRequest);
      case 'rollback':
        return this.rollback(request as RollbackRequest);
    }
  }

  private accountRow(playerId: string): AccountRow | undefined {
    return this.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE player_id = ?').get(playerId);
  }

  private betRow(requestId: string): BetRow | undefined {
    return this.prepare<[string], BetRow>(
      'SELECT request_id, player_id, round_id, amount_cents, state FROM bets WHERE request_id = ?',
    ).get(requestId);
  }

  /** Moves the balance and writes the log line; returns the log position. */
  private record(
    kind: StatementKind,
    t: Pick<StatementEntry, 'requestId' | 'playerId' | 'roundId' | 'betRequestId' | 'amountCents' | 'movedCents'>,
    at: string,
  ): { seq: number; balanceAfterCents: number } {
    let balanceAfterCents: number;
    if (t.movedCents !== 0) {
      const moved = this.prepare<[number, string], { balance_cents: number }>(
        'UPDATE accounts SET balance_cents = balance_cents + ? WHERE player_id = ? RETURNING balance_cents',
      ).get(t.movedCents, t.playerId);
      if (!moved) throw new Error(`no account ${t.playerId} to move ${t.movedCents} cents on`);
      balanceAfterCents = moved.balance_cents;
    } else {
      balanceAfterCents = this.accountRow(t.playerId)?.balance_cents ?? 0;
    }
    const inserted = this.prepare(
      `INSERT INTO transactions (kind, request_id, player_id, round_id, bet_request_id, amount_cents, moved_cents,
           balance_after_cents, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(kind, t.requestId, t.playerId, t.roundId, t.betRequestId, t.amountCents, t.movedCents, balanceAfterCents, at);
    return { seq: Number(inserted.lastInsertRowid), balanceAfterCents };
  }

  private stakedOn(playerId: string, now: Date): number {
    const day = utcDay(now);
    const row = this.prepare<[string, string, string], { staked: number | null }>(
      `SELECT SUM(amount_cents) AS staked FROM bets
         WHERE player_id = ? AND state IN ('open', 'won') AND created_at >= ? AND created_at < ?`,
    ).get(playerId, day.start, day.end);
    return row?.staked ?? 0;
  }

  private balance(request: BalanceRequest): object {
    const account = this.accountRow(request.playerId);
    if (!account) return { status: 'UNKNOWN_PLAYER' };
    if (account.blocked) return { status: 'PLAYER_BLOCKED' };
    return { status: 'OK', balanceCents: account.balance_cents };
  }

  private bet(request: BetRequest, refuse: ForcedRefusal | undefined): object {
    // A rollback came first: this bet is refused for good.
    if (this.betRow(request.requestId)?.state === 'rolled_back_unseen') return { status: 'ROLLED_BACK' };
    const account = this.accountRow(request.playerId);
    if (!account) return { status: 'UNKNOWN_PLAYER' };
    if (account.blocked) return { status: 'PLAYER_BLOCKED' };
    if (refuse === 'INSUFFICIENT_FUNDS') return { status: refuse, balanceCents: account.balance_cents };
    if (refuse) return { status: refuse };
    const now = this.now();
    if (
      account.daily_stake_limit_cents !== null &&
      this.stakedOn(request.playerId, now) + request.amountCents > account.daily_stake_limit_cents
    ) {
      return { status: 'LIMIT_REACHED' };
    }
    if (account.balance_cents < request.amountCents) {
      return { status: 'INSUFFICIENT_FUNDS', balanceCents: account.balance_cents };
    }
    const at = now.toISOString();
    const done = this.record('bet', { ...request, betRequestId: null, movedCents: -request.amountCents }, at);
    this.prepare(
      `INSERT INTO bets (request_id, player_id, round_id, amount_cents, state, created_at)
         VALUES (?, ?, ?, ?, 'open', ?)`,
    ).run(request.requestId, request.playerId, request.roundId, request.amountCents, at);
    return { status: 'OK', balanceCents: done.balanceAfterCents, transactionId: transactionId(done.seq) };
  }

  private win(request: WinRequest): { answer: object } | { conflict: string } {
    const bet = this.betRow(request.betRequestId);
    if (
      !bet ||
      bet.state === 'rolled_back' ||
      bet.state === 'rolled_back_unseen' ||
      bet.player_id !== request.playerId ||
      bet.round_id !== request.roundId
    ) {
      return { answer: { status: 'UNKNOWN_BET' } };
    }
    if (bet.state === 'won') {
      return { conflict: `bet ${request.betRequestId} was already settled by another win` };
    }
    const done = this.record('win', { ...request, movedCents: request.amountCents }, this.now().toISOString());
    this.prepare(`UPDATE bets SET state = 'won', settled_by = ? WHERE request_id = ?`).run(
      request.requestId,
      bet.request_id,
    );
    return { answer: { status: 'OK', balanceCents: done.balanceAfterCents, transactionId: transactionId(done.seq) } };
  }

  private rollback(request: RollbackRequest): { answer: object } | { conflict: string } {
    const bet = this.betRow(request.betRequestId);
    const at = this.now().toISOString();
    if (bet) {
      if (
        bet.player_id !== request.playerId ||
        bet.round_id !== request.roundId ||
        bet.amount_cents !== request.amountCents
      ) {
        return {
          conflict: `bet ${request.betRequestId} was recorded for another player, round or amount than this rollback's`,
        };
      }
      if (bet.state === 'won') return { answer: { status: 'BET_SETTLED' } };
      if (bet.state === 'open') {
        const done = this.record('rollback', { ...request, movedCents: request.amountCents }, at);
        this.prepare(`UPDATE bets SET state = 'rolled_back', settled_by = ? WHERE request_id = ?`).run(
          request.requestId,
          bet.request_id,
        );
        return { answer: { status: 'OK', balanceCents: done.balanceAfterCents } };
      }
      // Already reversed (or remembered) by an earlier rollback: nothing more to move.
      const done = this.record('rollback', { ...request, movedCents: 0 }, at);
      return { answer: { status: 'OK', balanceCents: done.balanceAfterCents } };
    }
    const refusedBet = this.prepare<[string], { one: number }>(
      'SELECT 1 AS one FROM requests WHERE request_id = ?',
    ).get(request.betRequestId);
    if (!refusedBet) {
      // Never seen: remembered, so that a late bet with this id answers ROLLED_BACK.
      this.prepare(
        `INSERT INTO bets (request_id, player_id, round_id, amount_cents, state, settled_by, created_at)
           VALUES (?, ?, ?, ?, 'rolled_back_unseen', ?, ?)`,
      ).run(request.betRequestId, request.playerId, request.roundId, request.amountCents, request.requestId, at);
    }
    const done = this.record('rollback', { ...request, movedCents: 0 }, at);
    return { answer: { status: 'OK', balanceCents: done.balanceAfterCents } };
  }

  // ---- administration -----------------------------------------------------------------

  createAccount(
    playerId: string,
    options: { balanceCents?: number; dailyStakeLimitCents?: number | null; blocked?: boolean } = {},
  ): AdminResult<AccountView> {
    return this.write((): AdminResult<AccountView> => {
      if (this.accountRow(playerId)) {
        return { ok: false, status: 'ACCOUNT_EXISTS', reason: `account ${playerId} exists already` };
      }
      const at = this.now().toISOString();
      this.prepare(
        `INSERT INTO accounts (player_id, balance_cents, blocked, daily_stake_limit_cents, created_at)
             VALUES (?, 0, ?, ?, ?)`,
      ).run(playerId, options.blocked ? 1 : 0, options.dailyStakeLimitCents ?? null, at);
      const opening = options.balanceCents ?? 0;
      if (opening > 0) {
        this.db
          .prepare('INSERT INTO requests (request_id, call, body, answer, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(`open-${playerId}`, 'adjust', JSON.stringify({ playerId, opening }), '{"status":"OK"}', at);
        this.record(
          'deposit',
          {
            requestId: `open-${playerId}`,
            playerId,
            roundId: null,
            betRequestId: null,
            amountCents: opening,
            movedCents: opening,
          },
          at,
        );
      }
      return { ok: true, value: this.view(playerId)! };
    });
  }

  /**
   * A deposit (amount > 0) or withdrawal (amount < 0), logged; idempotent on requestId like
   * the contract's calls. A withdrawal never takes the balance below zero.
   */
  adjust(requestId: string, playerId: string, amountCents: number): AdminResult<AccountView> {
    const body = JSON.stringify({ requestId, playerId, amountCents });
    return this.write((): AdminResult<AccountView> => {
      const seen = this.prepare<[string], { call: string; body: string }>(
        'SELECT call, body FROM requests WHERE request_id = ?',
      ).get(requestId);
      if (seen && (seen.call !== 'adjust' || seen.body !== body)) {
        return { ok: false, status: 'REQUEST_ID_REUSED', reason: `requestId ${requestId} was used for another call` };
      }
      const account = this.accountRow(playerId);
      if (!account) return { ok: false, status: 'UNKNOWN_PLAYER', reason: `no account ${playerId}` };
      if (seen) return { ok: true, value: this.view(playerId)! };
      if (account.balance_cents + amountCents < 0) {
        return {
          ok: false,
          status: 'INSUFFICIENT_FUNDS',
          reason: `the balance is ${account.balance_cents} cents, less than the ${-amountCents} withdrawn`,
        };
      }
      const at = this.now().toISOString();
      this.record(
        amountCents >= 0 ? 'deposit' : 'withdrawal',
        {
          requestId,
          playerId,
          roundId: null,
          betRequestId: null,
          amountCents: Math.abs(amountCents),
          movedCents: amountCents,
        },
        at,
      );
      this.prepare('INSERT INTO requests (request_id, call, body, answer, created_at) VALUES (?, ?, ?, ?, ?)').run(
        requestId,
        'adjust',
        body,
        '{"status":"OK"}',
        at,
      );
      return { ok: true, value: this.view(playerId)! };
    });
  }

  setBlocked(playerId: string, blocked: boolean): AdminResult<AccountView> {
    return this.write((): AdminResult<AccountView> => {
      const changed = this.prepare('UPDATE accounts SET blocked = ? WHERE player_id = ?').run(
        blocked ? 1 : 0,
        playerId,
      ).changes;
      if (changed === 0) return { ok: false, status: 'UNKNOWN_PLAYER', reason: `no account ${playerId}` };
      return { ok: true, value: this.view(playerId)! };
    });
  }

  setDailyStakeLimit(playerId: string, limitCents: number | null): AdminResult<AccountView> {
    return this.write((): AdminResult<AccountView> => {
      const changed = this.prepare('UPDATE accounts SET daily_stake_limit_cents = ? WHERE player_id = ?').run(
        limitCents,
        playerId,
      ).changes;
      if (changed === 0) return { ok: false, status: 'UNKNOWN_PLAYER', reason: `no account ${playerId}` };
      return { ok: true, value: this.view(playerId)! };
    });
  }

  view(playerId: string): AccountView | null {
    const row = this.accountRow(playerId);
    return row ? { ...toAccount(row), stakedTodayCents: this.stakedOn(playerId, this.now()) } : null;
  }

  accounts(): Account[] {
    return this.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY player_id').all().map(toAccount);
  }

  /** Log lines with `from` ≤ createdAt < `to`, in log order, after the cursor `after`. */
  statement(from: Date, to: Date, after = 0, limit = STATEMENT_DEFAULT_LIMIT): StatementPage {
    const rows = this.prepare<[string, string, number, number], TransactionRow>(
      `SELECT * FROM transactions WHERE created_at >= ? AND created_at < ? AND seq > ?
         ORDER BY seq LIMIT ?`,
    ).all(from.toISOString(), to.toISOString(), after, limit + 1);
    const page = rows.slice(0, limit).map(toEntry);
    return { transactions: page, next: rows.length > limit ? page[page.length - 1]!.seq : null };
  }

  /** Checks the books: each balance equals the sum of its log lines, and none is negative. */
  checkBalances(): string[] {
    return this.prepare<[], { player_id: string; balance_cents: number; moved: number | null }>(
      `SELECT a.player_id, a.balance_cents, (SELECT SUM(moved_cents) FROM transactions t WHERE t.player_id = a.player_id) AS moved
         FROM accounts a`,
    )
      .all()
      .filter((r) => r.balance_cents !== (r.moved ?? 0) || r.balance_cents < 0)
      .map((r) => `${r.player_id}: balance ${r.balance_cents} but its transactions sum to ${r.moved ?? 0}`);
  }
}

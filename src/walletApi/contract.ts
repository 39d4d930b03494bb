/**
 * The operator's wallet API (`../shared/spec/wallet-api.md`) as types and runtime checks,
 * shared by the game server (the client) and the reference operator wallet (the server).
 * Amounts are integer cents, currency `EUR`. Nothing here does I/O.
 */

export const WALLET_CALLS = ['balance', 'bet', 'win', 'rollback'] as const;
export type WalletCall = (typeof WALLET_CALLS)[number];

export const WALLET_CURRENCY = 'EUR';
export type Currency = typeof WALLET_CURRENCY;

/** Largest amount one call may carry: 100 million euros, far above any lot. */
export const MAX_AMOUNT_CENTS = 10_000_000_000;

/** The operator's own player ids, as the launch token names them. */
export const WALLET_PLAYER_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Request and round ids: UUIDs in practice; any 1–128 of these characters is accepted. */
export const WALLET_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export interface BalanceRequest {
  requestId: string;
  playerId: string;
}

export interface BetRequest {
  requestId: string;
  playerId: string;
  roundId: string;
  amountCents: number;
  currency: Currency;
}

/** What settles a round: a win (the lot, 0 for a losing unit) or a rollback (the bet's amount). */
export interface SettlementRequest {
  requestId: string;
  playerId: string;
  roundId: string;
  /** The requestId of the bet this call settles or reverses. */
  betRequestId: string;
  /** A win: the lot, 0 for a losing unit (it closes the round at the operator). A rollback: the bet's amount. */
  amountCents: number;
  currency: Currency;
}

export type WinRequest = SettlementRequest;
export type RollbackRequest = SettlementRequest;

export interface WalletRequests {
  balance: BalanceRequest;
  bet: BetRequest;
  win: WinRequest;
  rollback: RollbackRequest;
}

/** Answers any call may get. */
export type InvalidSignatureAnswer = { status: 'INVALID_SIGNATURE' };
export type RequestIdReusedAnswer = { status: 'REQUEST_ID_REUSED' };
type CommonAnswer = InvalidSignatureAnswer | RequestIdReusedAnswer;

export type BalanceAnswer =
  { status: 'OK'; balanceCents: number } | { status: 'UNKNOWN_PLAYER' } | { status: 'PLAYER_BLOCKED' } | CommonAnswer;

export type BetAnswer =
  | { status: 'OK'; balanceCents: number; transactionId: string }
  | { status: 'INSUFFICIENT_FUNDS'; balanceCents: number }
  | { status: 'LIMIT_REACHED' }
  | { status: 'PLAYER_BLOCKED' }
  | { status: 'UNKNOWN_PLAYER' }
  | { status: 'ROLLED_BACK' }
  | CommonAnswer;

export type WinAnswer =
  { status: 'OK'; balanceCents: number; transactionId: string } | { status: 'UNKNOWN_BET' } | CommonAnswer;

export type RollbackAnswer = { status: 'OK'; balanceCents: number } | { status: 'BET_SETTLED' } | CommonAnswer;

export interface WalletAnswers {
  balance: BalanceAnswer;
  bet: BetAnswer;
  win: WinAnswer;
  rollback: RollbackAnswer;
}

export type WalletStatus<C extends WalletCall> = WalletAnswers[C]['status'];

/** Every status each call may answer (HTTP 200, signed), `OK` first. */
export const WALLET_STATUSES: { readonly [C in WalletCall]: readonly WalletStatus<C>[] } = {
  balance: ['OK', 'UNKNOWN_PLAYER', 'PLAYER_BLOCKED', 'INVALID_SIGNATURE', 'REQUEST_ID_REUSED'],
  bet: [
    'OK',
    'INSUFFICIENT_FUNDS',
    'LIMIT_REACHED',
    'PLAYER_BLOCKED',
    'UNKNOWN_PLAYER',
    'ROLLED_BACK',
    'INVALID_SIGNATURE',
    'REQUEST_ID_REUSED',
  ],
  win: ['OK', 'UNKNOWN_BET', 'INVALID_SIGNATURE', 'REQUEST_ID_REUSED'],
  rollback: ['OK', 'BET_SETTLED', 'INVALID_SIGNATURE', 'REQUEST_ID_REUSED'],
};

export function isWalletCall(value: string): value is WalletCall {
  return (WALLET_CALLS as readonly string[]).includes(value);
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const FIELDS: { readonly [C in WalletCall]: readonly (keyof WalletRequests[C])[] } = {
  balance: ['requestId', 'playerId'],
  bet: ['requestId', 'playerId', 'roundId', 'amountCents', 'currency'],
  win: ['requestId', 'playerId', 'roundId', 'betRequestId', 'amountCents', 'currency'],
  rollback: ['requestId', 'playerId', 'roundId', 'betRequestId', 'amountCents', 'currency'],
};

/** Smallest amount per call: a bet and a rollback move money, a win may be 0 (a losing unit). */
const MIN_AMOUNT: Record<WalletCall, number> = { balance: 0, bet: 1, win: 0, rollback: 1 };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkField(call: WalletCall, name: string, value: unknown): string | null {
  switch (name) {
    case 'requestId':
    case 'roundId':
    case 'betRequestId':
      return typeof value === 'string' && WALLET_ID.test(value)
        ? null
        : `${name} must be 1–128 characters among A–Z a–z 0–9 _ . : -`;
    case 'playerId':
      return typeof value === 'string' && WALLET_PLAYER_ID.test(value)
        ? null
        : 'playerId must be 1–64 characters among A–Z a–z 0–9 _ -';
    case 'amountCents': {
      const min = MIN_AMOUNT[call];
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= MAX_AMOUNT_CENTS
        ? null
        : `amountCents must be a whole number of cents from ${min} to ${MAX_AMOUNT_CENTS}`;
    }
    case 'currency':
      return value === WALLET_CURRENCY ? null : `currency must be "${WALLET_CURRENCY}"`;
    default:
      return `unexpected field ${name}`;
  }
}

/**
 * Checks a request body of `call` (already parsed JSON): every field of the contract present
 * and well-formed, no other field. The reason names the first problem found.
 */
export function checkRequest<C extends WalletCall>(call: C, body: unknown): Checked<WalletRequests[C]> {
  if (!isRecord(body)) return { ok: false, reason: `the ${call} body must be a JSON object` };
  const fields = FIELDS[call] as readonly string[];
  for (const key of Object.keys(body)) {
    if (!fields.includes(key)) return { ok: false, reason: `unexpected field ${key} in a ${call} body` };
  }
  for (const name of fields) {
    if (!(name in body)) return { ok: false, reason: `${name} is missing` };
    const problem = checkField(call, name, body[name]);
    if (problem) return { ok: false, reason: problem };
  }
  return { ok: true, value: canonicalRequest(call, body as unknown as WalletRequests[C]) };
}

/** The request with the contract's fields only, in the contract's order: what is sent and compared. */
export function canonicalRequest<C extends WalletCall>(call: C, body: WalletRequests[C]): WalletRequests[C] {
  const out: Record<string, unknown> = {};
  for (const name of FIELDS[call] as readonly string[]) out[name] = (body as unknown as Record<string, unknown>)[name];
  return out as unknown as WalletRequests[C];
}

function isCents(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Checks an answer body of `call`: a status the call may answer, with the fields that
 * status carries (`balanceCents` whole cents ≥ 0, `transactionId` a non-empty string).
 * Extra fields are tolerated (an operator may add its own) and left out of the value.
 */
export function checkAnswer<C extends WalletCall>(call: C, body: unknown): Checked<WalletAnswers[C]> {
  if (!isRecord(body)) return { ok: false, reason: 'the answer is not a JSON object' };
  const { status } = body;
  if (typeof status !== 'string' || !(WALLET_STATUSES[call] as readonly string[]).includes(status)) {
    return { ok: false, reason: `status ${JSON.stringify(status)} is not an answer to ${call}` };
  }
  const withBalance = status === 'OK' || (call === 'bet' && status === 'INSUFFICIENT_FUNDS');
  const withTransaction = status === 'OK' && (call === 'bet' || call === 'win');
  const value: Record<string, unknown> = { status };
  if (withBalance) {
    if (!isCents(body.balanceCents)) return { ok: false, reason: `${status} needs balanceCents in whole cents` };
    value.balanceCents = body.balanceCents;
  }
  if (withTransaction) {
    if (typeof body.transactionId !== 'string' || body.transactionId === '') {
      return { ok: false, reason: 'OK needs a transactionId' };
    }
    value.transactionId = body.transactionId;
  }
  return { ok: true, value: value as WalletAnswers[C] };
}

// ---- Reconciliation: the wallet's statement -------------------------------------------

export const STATEMENT_KINDS = ['bet', 'win', 'rollback', 'deposit', 'withdrawal'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** One line of the wallet's transaction log. */
export interface StatementEntry {
  /** Position in the log: strictly increasing, the cursor for the next page. */
  seq: number;
  transactionId: string;
  kind: StatementKind;
  requestId: string;
  playerId: string;
  /** null for deposits and withdrawals. */
  roundId: string | null;
  /** The bet a win or rollback refers to; null otherwise. */
  betRequestId: string | null;
  /** The amount the call carried. */
  amountCents: number;
  /** What it did to the balance: −bet, +win, +bet reversed, 0 for a rollback that found nothing to reverse. */
  movedCents: number;
  balanceAfterCents: number;
  /** ISO 8601, UTC, milliseconds. */
  createdAt: string;
}

export interface StatementAnswer {
  status: 'OK';
  from: string;
  to: string;
  transactions: StatementEntry[];
  /** The `after` cursor of the next page, null when this page ends the period. */
  next: number | null;
}

function checkEntry(entry: unknown, index: number): string | null {
  if (!isRecord(entry)) return `transactions[${index}] is not an object`;
  const strings = ['transactionId', 'requestId', 'playerId', 'createdAt'] as const;
  for (const name of strings) {
    if (typeof entry[name] !== 'string') return `transactions[${index}].${name} must be a string`;
  }
  for (const name of ['roundId', 'betRequestId'] as const) {
    if (entry[name] !== null && typeof entry[name] !== 'string') {
      return `transactions[${index}].${name} must be a string or null`;
    }
  }
  if (!(STATEMENT_KINDS as readonly unknown[]).includes(entry.kind)) return `transactions[${index}].kind is unknown`;
  for (const name of ['seq', 'amountCents', 'balanceAfterCents'] as const) {
    if (!isCents(entry[name])) return `transactions[${index}].${name} must be whole cents`;
  }
  if (typeof entry.movedCents !== 'number' || !Number.isSafeInteger(entry.movedCents)) {
    return `transactions[${index}].movedCents must be whole cents`;
  }
  return null;
}

export function checkStatement(body: unknown): Checked<StatementAnswer> {
  if (!isRecord(body)) return { ok: false, reason: 'the statement is not a JSON object' };
  if (body.status !== 'OK') return { ok: false, reason: `statement status ${JSON.stringify(body.status)}` };
  if (typeof body.from !== 'string' || typeof body.to !== 'string') {
    return { ok: false, reason: 'the statement needs from and to' };
  }
  if (!Array.isArray(body.transactions)) return { ok: false, reason: 'the statement needs transactions' };
  for (const [i, entry] of body.transactions.entries()) {
    const problem = checkEntry(entry, i);
    if (problem) return { ok: false, reason: problem };
  }
  if (body.next !== null && !isCents(body.next)) return { ok: false, reason: 'next must be a cursor or null' };
  return { ok: true, value: body as unknown as StatementAnswer };
}

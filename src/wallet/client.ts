import {
  checkAnswer,
  checkRequest,
  checkStatement,
  type StatementAnswer,
  type WalletAnswers,
  type WalletCall,
  type WalletRequests,
  WALLET_CALLS,
} from './contract.ts';
import { http1Request, NoAnswerInTime, type Http1Answer } from './http1.ts';
import { memoByKey } from './memo.ts';
import { SIGNATURE_HEADER, SIGNATURE_HEADER_LOWER, signBody, verifySignature } from './signature.ts';

/** The spec's WALLET_TIMEOUT_MS default. */
export const DEFAULT_WALLET_TIMEOUT_MS = 2000;

/**
 * What a wallet call came to. `answer`: the wallet said what happened (HTTP 200, signed,
 * a status of the contract) — `OK` or a final refusal that changed nothing. `unknown`: the
 * call may or may not have taken effect (any other HTTP status, a timeout, a reset, an
 * unsigned, badly signed or unparsable answer); retry it with the same requestId.
 */
export type WalletResult<C extends WalletCall> =
  { kind: 'answer'; status: WalletAnswers[C]['status']; body: WalletAnswers[C] } | { kind: 'unknown'; reason: string };

export interface CallOptions {
  /** The most the call may take, connection to last byte (default 2000 ms). */
  timeoutMs?: number;
}

/** A request body that breaks the contract: a bug of the caller, and nothing was sent. */
export class WalletRequestError extends Error {}

function endpoint(baseUrl: string, pathAndQuery: string): URL {
  return new URL(`${baseUrl.replace(/\/+$/, '')}${pathAndQuery}`);
}

/** A wallet's call URLs, parsed once: each play would parse two of them again. */
const callUrlsOf = memoByKey(
  (baseUrl) =>
    Object.fromEntries(WALLET_CALLS.map((call) => [call, endpoint(baseUrl, `/${call}`)])) as Record<WalletCall, URL>,
);

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof NoAnswerInTime) return `no answer within ${timeoutMs} ms`;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `connection failed: ${code && !error.message.includes(code) ? `${error.message} (${code})` : error.message}`;
  }
  return `connection failed: ${String(error)}`;
}

type Raw = { ok: true; text: string } | { ok: false; reason: string };

/** Sends one signed request; the raw answer text only if it is HTTP 200 and signed by `secret`. */
async function exchange(
  url: URL,
  secret: string,
  init: { method: 'GET' | 'POST'; signed: string; body?: string },
  timeoutMs: number,
): Promise<Raw> {
  const headers: Record<string, string> = { [SIGNATURE_HEADER]: signBody(secret, init.signed) };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  let received: Http1Answer;
  try {
    received = await http1Request(url, { method: init.method, headers, body: init.body, timeoutMs });
  } catch (error) {
    return { ok: false, reason: describe(error, timeoutMs) };
  }
  if (received.status !== 200) return { ok: false, reason: `HTTP ${received.status}` };
  const signature = received.headers.get(SIGNATURE_HEADER_LOWER);
  if (signature === undefined) return { ok: false, reason: 'the answer is not signed' };
  if (!verifySignature(secret, received.body, signature)) {
    return { ok: false, reason: 'the answer signature does not match' };
  }
  return { ok: true, text: received.body.toString('utf8') };
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * One call of the wallet API: `POST {url}/{call}` with the body signed by `secret`. Never
 * throws for anything the network or the wallet does: every outcome is an `answer` or
 * `unknown`, per the spec's rule. Throws `WalletRequestError`, before sending anything, for
 * a body that breaks the contract.
 */
export async function callWallet<C extends WalletCall>(
  url: string,
  secret: string,
  call: C,
  body: WalletRequests[C],
  options: CallOptions = {},
): Promise<WalletResult<C>> {
  const checked = checkRequest(call, body);
  if (!checked.ok) throw new WalletRequestError(`${call}: ${checked.reason}`);
  // checkRequest gives the body back canonical: the contract's fields, in the contract's order.
  const raw = JSON.stringify(checked.value);
  const timeoutMs = options.timeoutMs ?? DEFAULT_WALLET_TIMEOUT_MS;
  const exchanged = await exchange(
    callUrlsOf(url)[call],
    secret,
    { method: 'POST', signed: raw, body: raw },
    timeoutMs,
  );
  if (!exchanged.ok) return { kind: 'unknown', reason: exchanged.reason };
  const parsed = parse(exchanged.text);
  if (!parsed.ok) return { kind: 'unknown', reason: 'the answer is not JSON' };
  const answer = checkAnswer(call, parsed.value);
  if (!answer.ok) return { kind: 'unknown', reason: `the answer breaks the contract: ${answer.reason}` };
  return { kind: 'answer', status: answer.value.status, body: answer.value };
}

export interface StatementQuery {
  /** Start of the period (inclusive), an ISO 8601 date-time. */
  from: string | Date;
  /** End of the period (exclusive). */
  to: string | Date;
  /** The `next` cursor of the previous page. */
  after?: number;
  /** Entries per page (the wallet's default and cap apply). */
  limit?: number;
}

export type StatementResult = { kind: 'answer'; body: StatementAnswer } | { kind: 'unknown'; reason: string };

/** The request target of a statement page, as signed and sent: `/statement?from=…&to=…[&after=…][&limit=…]`. */
export function statementTarget(query: StatementQuery): string {
  const iso = (d: string | Date) => (typeof d === 'string' ? d : d.toISOString());
  const params = new URLSearchParams({ from: iso(query.from), to: iso(query.to) });
  if (query.after !== undefined) params.set('after', String(query.after));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  return `/statement?${params.toString()}`;
}

/** One page of the wallet's statement (`GET /statement`, the request target signed). */
export async function getStatement(
  url: string,
  secret: string,
  query: StatementQuery,
  options: CallOptions = {},
): Promise<StatementResult> {
  const target = statementTarget(query);
  const timeoutMs = options.timeoutMs ?? DEFAULT_WALLET_TIMEOUT_MS;
  const exchanged = await exchange(endpoint(url, target), secret, { method: 'GET', signed: target }, timeoutMs);
  if (!exchanged.ok) return { kind: 'unknown', reason: exchanged.reason };
  const parsed = parse(exchanged.text);
  if (!parsed.ok) return { kind: 'unknown', reason: 'the statement is not JSON' };
  const statement = checkStatement(parsed.value);
  if (!statement.ok) return { kind: 'unknown', reason: `the statement breaks the contract: ${statement.reason}` };
  return { kind: 'answer', body: statement.value };
}

/** Every page of the statement for a period, in log order; unknown if any page is. */
export async function getFullStatement(
  url: string,
  secret: string,
  query: Omit<StatementQuery, 'after'>,
  options: CallOptions = {},
): Promise<{ kind: 'answer'; transactions: StatementAnswer['transactions'] } | { kind: 'unknown'; reason: string }> {
  const transactions: StatementAnswer['transactions'] = [];
  let after: number | undefined;
  for (;;) {
    const page = await getStatement(url, secret, { ...query, after }, options);
    if (page.kind === 'unknown') return page;
    transactions.push(...page.body.transactions);
    if (page.body.next === null) return { kind: 'answer', transactions };
    after = page.body.next;
  }
}

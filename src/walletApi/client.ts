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
import { singleKeyring, type WalletKeyring } from './keyring.ts';
import { memoByKey } from './memo.ts';
import {
  KEY_ID_HEADER_LOWER,
  SIGNATURE_HEADER_LOWER,
  signedHeaders,
  TIMESTAMP_HEADER_LOWER,
  verifyMessage,
} from './signature.ts';
import { DEFAULT_CONNECTIONS, MAX_ANSWER_BYTES, NoAnswerInTime, send, type TransportAnswer } from './transport.ts';

/** The spec's WALLET_TIMEOUT_MS default. */
export const DEFAULT_WALLET_TIMEOUT_MS = 2000;
/** A call's answer is a few fields: anything near this is not one. */
const MAX_CALL_ANSWER_BYTES = 64 * 1024;

/**
 * What a wallet call came to. `answer`: the wallet said what happened (HTTP 200, signed for
 * this call's path within the clock window, naming this call's requestId, a status of the
 * contract) — `OK` or a final refusal that changed nothing. `unknown`: the call may or may
 * not have taken effect (any other HTTP status, a timeout, a reset, an unsigned, badly
 * signed, stale or unparsable answer, another call's answer, the wallet refusing our
 * signature); retry it with the same requestId.
 */
export type WalletResult<C extends WalletCall> =
  { kind: 'answer'; status: WalletAnswers[C]['status']; body: WalletAnswers[C] } | { kind: 'unknown'; reason: string };

/** The secrets shared with the wallet: a keyring, or one secret (the key `default`). */
export type WalletKeys = WalletKeyring | string;

export interface CallOptions {
  /** The most the call may take, from the call to the answer's last byte (default 2000 ms). */
  timeoutMs?: number;
  /** The most connections open to this wallet (applies when its pool is made; default 64). */
  connections?: number;
}

/** A request body that breaks the contract: a bug of the caller, and nothing was sent. */
export class WalletRequestError extends Error {}

interface Endpoint {
  origin: string;
  /** WALLET_URL's own path, without a trailing slash ('' at the root). */
  basePath: string;
}

/** A wallet URL's origin and path, parsed once: every call would parse them again. */
const endpointOf = memoByKey((baseUrl): Endpoint => {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WalletRequestError(`the wallet URL must be http or https, not ${url.protocol}`);
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
});

/** Each call's path as sent and signed, e.g. `/fdj/wallet/bet`. */
const callPathsOf = memoByKey(
  (baseUrl) =>
    Object.fromEntries(WALLET_CALLS.map((call) => [call, `${endpointOf(baseUrl).basePath}/${call}`])) as Record<
      WalletCall,
      string
    >,
);

const keyringOf = (keys: WalletKeys): WalletKeyring => (typeof keys === 'string' ? singleKeyring(keys) : keys);

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof NoAnswerInTime) return `no answer within ${timeoutMs} ms`;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `connection failed: ${code && !error.message.includes(code) ? `${error.message} (${code})` : error.message}`;
  }
  return `connection failed: ${String(error)}`;
}

type Raw = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Sends one request signed for `path` (the request target as sent); the answer's text only
 * if it is HTTP 200 and signed for the same path, by a key of the keyring, within the window.
 */
async function exchange(
  baseUrl: string,
  keys: WalletKeys,
  request: { method: 'GET' | 'POST'; path: string; body?: string; maxBodyBytes: number },
  options: CallOptions,
): Promise<Raw> {
  const keyring = keyringOf(keys);
  const timeoutMs = options.timeoutMs ?? DEFAULT_WALLET_TIMEOUT_MS;
  const headers: Record<string, string> = { ...signedHeaders(keyring, request.path, request.body ?? '') };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  let received: TransportAnswer;
  try {
    received = await send(
      endpointOf(baseUrl).origin,
      { ...request, headers, timeoutMs },
      { connections: options.connections ?? DEFAULT_CONNECTIONS },
    );
  } catch (error) {
    return { ok: false, reason: describe(error, timeoutMs) };
  }
  if (received.status !== 200) return { ok: false, reason: `HTTP ${received.status}` };
  const verified = verifyMessage(keyring, request.path, received.body, {
    timestamp: received.headers[TIMESTAMP_HEADER_LOWER],
    signature: received.headers[SIGNATURE_HEADER_LOWER],
    keyId: received.headers[KEY_ID_HEADER_LOWER],
  });
  if (!verified.ok) return { ok: false, reason: `the answer ${verified.reason}` };
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
 * One call of the wallet API: `POST {url}/{call}`, signed with the keyring's first key. Never
 * throws for anything the network or the wallet does: every outcome is an `answer` or
 * `unknown`, per the spec's rule. Throws `WalletRequestError`, before sending anything, for
 * a body that breaks the contract.
 */
export async function callWallet<C extends WalletCall>(
  url: string,
  keys: WalletKeys,
  call: C,
  body: WalletRequests[C],
  options: CallOptions = {},
): Promise<WalletResult<C>> {
  const checked = checkRequest(call, body);
  if (!checked.ok) throw new WalletRequestError(`${call}: ${checked.reason}`);
  // checkRequest gives the body back canonical: the contract's fields, in the contract's order.
  const raw = JSON.stringify(checked.value);
  const path = callPathsOf(url)[call];
  const exchanged = await exchange(
    url,
    keys,
    { method: 'POST', path, body: raw, maxBodyBytes: MAX_CALL_ANSWER_BYTES },
    options,
  );
  if (!exchanged.ok) return { kind: 'unknown', reason: exchanged.reason };
  const parsed = parse(exchanged.text);
  if (!parsed.ok) return { kind: 'unknown', reason: 'the answer is not JSON' };
  const answer = parsed.value as { status?: unknown; requestId?: unknown } | null;
  if (answer?.status === 'INVALID_SIGNATURE') {
    return {
      kind: 'unknown',
      reason: 'the wallet refused our signature (INVALID_SIGNATURE): check the secrets and clocks',
    };
  }
  if (answer?.requestId !== checked.value.requestId) {
    return {
      kind: 'unknown',
      reason: `the answer names another call (requestId ${JSON.stringify(answer?.requestId)})`,
    };
  }
  const contract = checkAnswer(call, parsed.value);
  if (!contract.ok) return { kind: 'unknown', reason: `the answer breaks the contract: ${contract.reason}` };
  return { kind: 'answer', status: contract.value.status, body: contract.value };
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

/** The request target of a statement page, below WALLET_URL's path: `/statement?from=…&to=…[&after=…][&limit=…]`. */
export function statementTarget(query: StatementQuery): string {
  const iso = (d: string | Date) => (typeof d === 'string' ? d : d.toISOString());
  const params = new URLSearchParams({ from: iso(query.from), to: iso(query.to) });
  if (query.after !== undefined) params.set('after', String(query.after));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  return `/statement?${params.toString()}`;
}

/** One page of the wallet's statement (`GET /statement`, its request target signed as its path). */
export async function getStatement(
  url: string,
  keys: WalletKeys,
  query: StatementQuery,
  options: CallOptions = {},
): Promise<StatementResult> {
  const path = `${endpointOf(url).basePath}${statementTarget(query)}`;
  const exchanged = await exchange(url, keys, { method: 'GET', path, maxBodyBytes: MAX_ANSWER_BYTES }, options);
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
  keys: WalletKeys,
  query: Omit<StatementQuery, 'after'>,
  options: CallOptions = {},
): Promise<{ kind: 'answer'; transactions: StatementAnswer['transactions'] } | { kind: 'unknown'; reason: string }> {
  const transactions: StatementAnswer['transactions'] = [];
  let after: number | undefined;
  for (;;) {
    const page = await getStatement(url, keys, { ...query, after }, options);
    if (page.kind === 'unknown') return page;
    transactions.push(...page.body.transactions);
    if (page.body.next === null) return { kind: 'answer', transactions };
    after = page.body.next;
  }
}

import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  checkRequest,
  isWalletCall,
  KEY_ID_HEADER_LOWER,
  SIGNATURE_HEADER_LOWER,
  signedHeaders,
  singleKeyring,
  TIMESTAMP_HEADER_LOWER,
  verifyMessage,
  WALLET_PLAYER_ID,
  WALLET_ID,
  MAX_AMOUNT_CENTS,
  type WalletCall,
  type WalletKeys,
} from '../walletApi/index.ts';
import { CallQueue } from './callQueue.ts';
import { walletMetrics } from './metrics.ts';
import { loadFaultSettings, WalletConfigError } from './config.ts';
import { FaultPlan, NO_FAULTS, type FaultSettings } from './faults.ts';
import { STATEMENT_DEFAULT_LIMIT, STATEMENT_MAX_LIMIT, type AdminResult, type WalletLedger } from './ledger.ts';

/**
 * The reference wallet's HTTP server (node:http):
 *
 *   POST /balance | /bet | /win | /rollback   the contract (../shared/spec/wallet-api.md)
 *   GET  /statement?from=ISO&to=ISO[&after=SEQ][&limit=N]   the transaction log of a period
 *   POST /admin/accounts | /admin/adjust | /admin/block | /admin/limit   accounts
 *   GET  /admin/accounts/PLAYER               one account
 *   POST /admin/faults, GET /admin/faults     the fault mode: replace its settings, read them and its counts
 *   GET  /health                              liveness (unsigned request)
 *
 * Every request is signed (contract version 2: `X-Spincake-Timestamp` and
 * `X-Spincake-Signature`, hex HMAC-SHA256 of path, timestamp and raw body under a key of the
 * keyring; a GET signs its request target, query included, as its path) and checked within
 * the 300 s clock window; every answer is signed the same way for the path it answers, with
 * the keyring's first key. The contract's answers carry the requestId they answer. See
 * docs/operator-wallet.md.
 */

export interface WalletServerOptions {
  ledger: WalletLedger;
  /** The keyring shared with the game server (WALLET_SECRETS), or its one secret (WALLET_SECRET). */
  keys: WalletKeys;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  faults?: FaultSettings;
  /** Where problems are reported (a failed call, a conflict); silent by default. */
  log?: (line: string) => void;
}

export interface WalletServer {
  /** http://host:port, the game server's WALLET_URL. */
  url: string;
  /** The fault plan in force: its `counts` tell which faults were made. */
  readonly faults: FaultPlan;
  /** Replaces the fault settings (a fresh generator from their seed). */
  setFaults(settings: FaultSettings): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

/** A response that knows the path its answer signs: the path of the request it answers. */
type Answering = http.ServerResponse & { signedPath: string };

class BodyTooLarge extends Error {}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge());
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function isoDate(value: string | null, name: string): Date | string {
  if (value === null) return `${name} is missing (an ISO 8601 date-time such as 2026-11-30T00:00:00Z)`;
  const date = new Date(value);
  if (!ISO_DATE_TIME.test(value) || Number.isNaN(date.getTime())) {
    return `${name} must be an ISO 8601 date-time such as 2026-11-30T00:00:00Z, got "${value}"`;
  }
  return date;
}

/**
 * A contract answer as sent: the stored answer (a JSON object, given back byte for byte on a
 * replay) with the requestId it answers, so that it cannot pass for another call's.
 */
function naming(raw: string, requestId: string): string {
  return `${raw.slice(0, -1)},"requestId":${JSON.stringify(requestId)}}`;
}

function cents(value: unknown, min: number): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= MAX_AMOUNT_CENTS;
}

export async function startWalletServer(options: WalletServerOptions): Promise<WalletServer> {
  const { ledger } = options;
  const keyring = typeof options.keys === 'string' ? singleKeyring(options.keys) : options.keys;
  const log = options.log ?? (() => {});
  let plan = new FaultPlan(options.faults ?? NO_FAULTS);
  const calls = new CallQueue(ledger);
  const inFlight = new Set<Promise<void>>();

  /**
   * The answer, signed for `path` (the path of the request it answers). The response object
   * carries it: every answer of a request signs the same path.
   */
  async function send(response: Answering, status: number, raw: string): Promise<void> {
    // Nothing leaves before what it tells is on disk: the ledger's commits are fsynced in groups.
    await ledger.durable();
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(raw),
      'cache-control': 'no-store',
      ...signedHeaders(keyring, response.signedPath, raw),
    });
    response.end(raw);
  }
  const metrics = walletMetrics();
  const sendJson = (response: Answering, status: number, body: object) => send(response, status, JSON.stringify(body));
  const badRequest = (response: Answering, reason: string) =>
    sendJson(response, 400, { status: 'BAD_REQUEST', reason });
  const adminAnswer = (response: Answering, result: AdminResult<object>) =>
    sendJson(
      response,
      200,
      result.ok ? { status: 'OK', account: result.value } : { status: result.status, reason: result.reason },
    );

  /** Whether the request was signed for its path by a key of the keyring, within the clock window. */
  function signedRequest(request: http.IncomingMessage, path: string, raw: Buffer | string): boolean {
    const headers = request.headers;
    return verifyMessage(keyring, path, raw, {
      timestamp: headers[TIMESTAMP_HEADER_LOWER],
      signature: headers[SIGNATURE_HEADER_LOWER],
      keyId: headers[KEY_ID_HEADER_LOWER],
    }).ok;
  }

  /**
   * A signed JSON body, or the refusal (bad or stale signature, not JSON) being sent. The
   * refusal names no requestId: nothing in a body that fails its signature is believed.
   */
  function signedJson(
    raw: Buffer,
    request: http.IncomingMessage,
    response: Answering,
  ): { body: unknown } | { refused: Promise<void> } {
    if (!signedRequest(request, response.signedPath, raw)) {
      return { refused: sendJson(response, 200, { status: 'INVALID_SIGNATURE' }) };
    }
    try {
      return { body: JSON.parse(raw.toString('utf8')) as unknown };
    } catch {
      return { refused: badRequest(response, 'the body is not JSON') };
    }
  }

  async function contractCall(
    call: WalletCall,
    raw: Buffer,
    request: http.IncomingMessage,
    response: Answering,
  ): Promise<void> {
    const signed = signedJson(raw, request, response);
    if ('refused' in signed) return signed.refused;
    const parsed = signed.body;
    const checked = checkRequest(call, parsed);
    if (!checked.ok) return badRequest(response, checked.reason);
    const fault = plan.decide(call);
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.error) {
      response.writeHead(plan.settings.errorStatus, { 'content-type': 'text/plain' });
      response.end('fault mode: failed before doing anything');
      return;
    }
    const item = { call, request: checked.value, refuse: fault.refuse ?? undefined };
    const first = calls.handle(item);
    // A duplicated delivery: the same call again, right behind it (in the same batch), answered from what it stored.
    const handled = fault.duplicate ? (await Promise.all([first, calls.handle(item)]))[1] : await first;
    if (fault.lostAnswer) {
      // Done and committed; the answer is lost on the way.
      response.socket?.destroy();
      return;
    }
    const requestId = checked.value.requestId;
    if (handled.kind === 'conflict') {
      log(`${call} ${requestId}: conflict: ${handled.reason}`);
      return send(response, 409, naming(handled.raw, requestId));
    }
    return send(response, 200, naming(handled.raw, requestId));
  }

  function statement(url: URL, response: Answering): Promise<void> {
    const from = isoDate(url.searchParams.get('from'), 'from');
    const to = isoDate(url.searchParams.get('to'), 'to');
    if (typeof from === 'string') return badRequest(response, from);
    if (typeof to === 'string') return badRequest(response, to);
    if (to <= from) return badRequest(response, 'to must come after from');
    const after = url.searchParams.get('after') ?? '0';
    const limit = url.searchParams.get('limit') ?? String(STATEMENT_DEFAULT_LIMIT);
    if (!/^[0-9]{1,15}$/.test(after)) return badRequest(response, 'after must be the next cursor of a previous page');
    if (!/^[0-9]{1,7}$/.test(limit) || Number(limit) < 1 || Number(limit) > STATEMENT_MAX_LIMIT) {
      return badRequest(response, `limit must be from 1 to ${STATEMENT_MAX_LIMIT}`);
    }
    const page = ledger.statement(from, to, Number(after), Number(limit));
    return sendJson(response, 200, { status: 'OK', from: from.toISOString(), to: to.toISOString(), ...page });
  }

  const faultState = () => ({ status: 'OK', faults: plan.settings, counts: plan.counts });

  /** `POST /admin/faults {WALLET_FAULT_…: value}`: the same settings as the environment's; unnamed ones off. */
  function setFaults(body: Record<string, unknown>, response: Answering): Promise<void> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(body)) {
      if (typeof value !== 'string' && typeof value !== 'number') {
        return badRequest(response, `${name} must be a string or a number`);
      }
      if (!name.startsWith('WALLET_FAULT_')) return badRequest(response, `${name} is not a WALLET_FAULT_* setting`);
      env[name] = String(value);
    }
    try {
      plan = new FaultPlan(loadFaultSettings(env));
    } catch (error) {
      if (error instanceof WalletConfigError) return badRequest(response, error.message);
      throw error;
    }
    return sendJson(response, 200, faultState());
  }

  function admin(path: string, body: unknown, response: Answering): Promise<void> {
    if (!isRecord(body)) return badRequest(response, 'the body must be a JSON object');
    if (path === '/admin/faults') return setFaults(body, response);
    const { playerId } = body;
    if (typeof playerId !== 'string' || !WALLET_PLAYER_ID.test(playerId)) {
      return badRequest(response, 'playerId must be 1–64 characters among A–Z a–z 0–9 _ -');
    }
    const limit = body.dailyStakeLimitCents;
    const limitOk = limit === undefined || limit === null || cents(limit, 0);
    switch (path) {
      case '/admin/accounts': {
        if (body.balanceCents !== undefined && !cents(body.balanceCents, 0)) {
          return badRequest(response, 'balanceCents must be whole cents ≥ 0');
        }
        if (!limitOk) return badRequest(response, 'dailyStakeLimitCents must be whole cents ≥ 0 or null');
        if (body.blocked !== undefined && typeof body.blocked !== 'boolean') {
          return badRequest(response, 'blocked must be true or false');
        }
        return adminAnswer(
          response,
          ledger.createAccount(playerId, {
            balanceCents: body.balanceCents as number | undefined,
            dailyStakeLimitCents: (limit as number | null | undefined) ?? null,
            blocked: body.blocked as boolean | undefined,
          }),
        );
      }
      case '/admin/adjust': {
        const { requestId, amountCents } = body;
        if (typeof requestId !== 'string' || !WALLET_ID.test(requestId)) {
          return badRequest(response, 'requestId must be 1–128 characters among A–Z a–z 0–9 _ . : -');
        }
        if (
          typeof amountCents !== 'number' ||
          !Number.isSafeInteger(amountCents) ||
          amountCents === 0 ||
          Math.abs(amountCents) > MAX_AMOUNT_CENTS
        ) {
          return badRequest(response, 'amountCents must be whole cents, > 0 to deposit, < 0 to withdraw');
        }
        return adminAnswer(response, ledger.adjust(requestId, playerId, amountCents));
      }
      case '/admin/block':
        if (typeof body.blocked !== 'boolean') return badRequest(response, 'blocked must be true or false');
        return adminAnswer(response, ledger.setBlocked(playerId, body.blocked));
      case '/admin/limit':
        if (limit === undefined || !limitOk) {
          return badRequest(response, 'dailyStakeLimitCents must be whole cents ≥ 0, or null for no limit');
        }
        return adminAnswer(response, ledger.setDailyStakeLimit(playerId, limit as number | null));
      default:
        return sendJson(response, 404, { status: 'NOT_FOUND', reason: `no ${path}` });
    }
  }

  async function route(request: http.IncomingMessage, response: Answering): Promise<void> {
    const target = request.url ?? '/';
    if (request.method === 'GET') {
      // A GET has no body: its request target, query included, is the path it signs.
      response.signedPath = target;
      const url = new URL(target, 'http://wallet.invalid');
      const path = url.pathname;
      if (path === '/health') return sendJson(response, 200, { status: 'OK' });
      if (path === '/metrics') return metrics(response);
      if (!signedRequest(request, target, '')) return sendJson(response, 200, { status: 'INVALID_SIGNATURE' });
      if (path === '/statement') return statement(url, response);
      if (path === '/admin/faults') return sendJson(response, 200, faultState());
      const account = /^\/admin\/accounts\/([^/]+)$/.exec(path);
      if (account) {
        const playerId = decodeURIComponent(account[1]!);
        const view = WALLET_PLAYER_ID.test(playerId) ? ledger.view(playerId) : null;
        return sendJson(
          response,
          200,
          view ? { status: 'OK', account: view } : { status: 'UNKNOWN_PLAYER', reason: `no account ${playerId}` },
        );
      }
      return sendJson(response, 404, { status: 'NOT_FOUND', reason: `no GET ${path}` });
    }
    if (request.method !== 'POST') return sendJson(response, 405, { status: 'METHOD_NOT_ALLOWED' });
    // A POST's query, if any, means nothing: its path alone, without building a URL for every call.
    const path = target.split('?', 1)[0]!;
    response.signedPath = path;
    let raw: Buffer;
    try {
      raw = await readBody(request);
    } catch (error) {
      if (error instanceof BodyTooLarge) return sendJson(response, 413, { status: 'BODY_TOO_LARGE' });
      throw error;
    }
    const call = path.slice(1);
    if (isWalletCall(call)) return contractCall(call, raw, request, response);
    if (!path.startsWith('/admin/')) return sendJson(response, 404, { status: 'NOT_FOUND', reason: `no POST ${path}` });
    const signed = signedJson(raw, request, response);
    if ('refused' in signed) return signed.refused;
    return admin(path, signed.body, response);
  }

  const server = http.createServer((request, plain) => {
    const response = plain as Answering;
    response.signedPath = (request.url ?? '/').split('?', 1)[0]!;
    const done = route(request, response)
      .catch((error: unknown) => {
        log(`${request.method} ${request.url}: ${error instanceof Error ? error.message : String(error)}`);
        if (!response.headersSent) {
          // Not signed on purpose: the game server counts it as unknown and retries.
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end('internal error');
        } else response.destroy();
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
  server.keepAliveTimeout = 10_000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the wallet has no TCP address');
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}`,
    get faults() {
      return plan;
    },
    setFaults(settings: FaultSettings) {
      plan = new FaultPlan(settings);
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Calls already received (a delayed one included) finish before the ledger may close.
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await closed;
    },
  };
}

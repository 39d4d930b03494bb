import type { Duplex } from 'node:stream';
import { Client, Pool, type Dispatcher } from 'undici';
import type buildConnector from 'undici/types/connector.js';

/**
 * The wallet calls' HTTP/1.1 transport, on undici: one `Pool` per wallet origin, its
 * connections capped and kept alive as long as the wallet's `Keep-Alive` hint allows, each
 * answer's body capped and each call bounded by its own timeout, from the moment it is asked
 * for (a wait for a free connection included) to the answer's last byte. Anything that is
 * not a whole, well-framed answer to this call — a malformed head, a body past its cap,
 * bytes after the answer, a connection the wallet closed, no answer in time — fails the call,
 * which the contract counts as unknown and retries with the same requestId.
 */

export interface TransportAnswer {
  status: number;
  /** Header names in lowercase; a header sent twice is an array. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface TransportRequest {
  method: 'GET' | 'POST';
  /** The request target as sent: path, and query for a GET. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** From the call to the answer's last byte. */
  timeoutMs: number;
  /** The largest answer body accepted. */
  maxBodyBytes: number;
}

export interface PoolSettings {
  /** The most connections open to this wallet at once; more calls wait for one. */
  connections: number;
}

/** The call took longer than its timeout. */
export class NoAnswerInTime extends Error {}
/** The answer's body is larger than the call accepts. */
export class AnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`the answer body is too large (over ${limit} bytes)`);
  }
}
/** The wallet sent more than the answer on its connection. */
export class BytesAfterAnswer extends Error {
  constructor() {
    super('bytes after the answer');
  }
}

export const DEFAULT_CONNECTIONS = 64;
/** How long an idle connection is kept when the wallet gives no hint: under common keep-alive timeouts (5 s). */
export const IDLE_MS = 4_000;
/** Kept no longer than this, whatever the wallet's hint. */
const MAX_IDLE_MS = 60_000;
/** Taken off the wallet's hint, so that the wallet never closes a connection as a call starts on it. */
const IDLE_MARGIN_MS = 1_000;
const MAX_HEAD_BYTES = 16 * 1024;
/** A statement page (100,000 entries at most) fits well under it; a call's own cap is smaller. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * One connection's client, which knows its socket: an answer is only whole once the bytes
 * that carried it are parsed to their end, and undici, having handed the answer over, closes
 * a connection whose wallet sent more after it (`bad response`) without telling the call.
 */
class WalletConnection extends Client {
  socket: Duplex | null = null;

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (handler instanceof Exchange) handler.connection = this;
    return super.dispatch(options, handler);
  }
}

function makeConnection(origin: URL, options: object): WalletConnection {
  const given = options as Client.Options & { connect: buildConnector.connector };
  const connection: WalletConnection = new WalletConnection(origin, {
    ...given,
    connect: (connectOptions, callback) =>
      given.connect(connectOptions, (...args: Parameters<buildConnector.Callback>) => {
        connection.socket = args[1];
        (callback as (...a: Parameters<buildConnector.Callback>) => void)(...args);
      }),
  });
  return connection;
}

const pools = new Map<string, Pool>();

/** The pool for `origin` (made on first use, with these settings). */
export function walletPool(origin: string, settings: PoolSettings = { connections: DEFAULT_CONNECTIONS }): Pool {
  const key = `${origin} ${settings.connections}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = new Pool(origin, {
      factory: makeConnection,
      connections: settings.connections,
      pipelining: 1,
      allowH2: false,
      keepAliveTimeout: IDLE_MS,
      keepAliveMaxTimeout: MAX_IDLE_MS,
      keepAliveTimeoutThreshold: IDLE_MARGIN_MS,
      maxHeaderSize: MAX_HEAD_BYTES,
      maxResponseSize: MAX_ANSWER_BYTES,
    });
    pools.set(key, pool);
  }
  return pool;
}

/** Whether the connection was ended for what came after an answer: bytes no call asked for. */
function endedForExtraBytes(socket: Duplex | null | undefined): boolean {
  if (!socket?.destroyed) return false;
  const error = socket.errored as (Error & { code?: string }) | null;
  if (!error) return false;
  return error.name === 'HTTPParserError' || (error.code === 'UND_ERR_SOCKET' && error.message === 'bad response');
}

/** One call through the pool: its answer gathered, its cap, its timeout; settles once. */
class Exchange implements Dispatcher.DispatchHandler {
  connection: WalletConnection | null = null;
  private controller: Dispatcher.DispatchController | null = null;
  private failure: Error | null = null;
  private settled = false;
  private status = 0;
  private headers: TransportAnswer['headers'] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly maxBodyBytes: number,
    timeoutMs: number,
    private readonly resolve: (answer: TransportAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.timer = setTimeout(failLate, timeoutMs, this);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Timed out while it waited for a connection: it is not sent at all.
    if (this.failure) controller.abort(this.failure);
    else this.controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: TransportAnswer['headers']) {
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
    const length = headers['content-length'];
    if (typeof length === 'string' && Number(length) > this.maxBodyBytes) {
      controller.abort(new AnswerTooLarge(this.maxBodyBytes));
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBodyBytes) return controller.abort(new AnswerTooLarge(this.maxBodyBytes));
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    // Checked once the bytes of this read are all parsed: those after the answer, if any, included.
    queueMicrotask(() => {
      if (endedForExtraBytes(this.connection?.socket)) return this.fail(new BytesAfterAnswer());
      if (this.settled) return;
      this.settled = true;
      clearTimeout(this.timer);
      const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      this.resolve({ status: this.status, headers: this.headers, body });
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.fail(error);
  }

  fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.failure = error;
    clearTimeout(this.timer);
    // Aborting ends the connection too: nothing late reaches the next call on it.
    this.controller?.abort(error);
    this.reject(error);
  }
}

function failLate(exchange: Exchange): void {
  exchange.fail(new NoAnswerInTime());
}

/** One exchange with the wallet at `origin`; rejects on any failure, never answers twice. */
export function send(origin: string, request: TransportRequest, settings?: PoolSettings): Promise<TransportAnswer> {
  return new Promise((resolve, reject) => {
    const exchange = new Exchange(request.maxBodyBytes, request.timeoutMs, resolve, reject);
    walletPool(origin, settings).dispatch(
      {
        origin,
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body ?? null,
        // The call's own timer bounds it, from the call to the last byte: undici's are off.
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      exchange,
    );
  });
}

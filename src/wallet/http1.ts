import net from 'node:net';
import tls from 'node:tls';

/**
 * A small HTTP/1.1 client for the wallet calls, with kept-alive connections.
 *
 * Why not node:http: a wallet play makes two calls, and on loopback node:http's request
 * and response objects, agent and streams cost ≈ 60 µs of CPU per exchange against ≈ 15 µs
 * here (one write per request, one parser per call, listeners attached once per connection,
 * no streams). What it leaves out is what the wallet contract does not need: requests are
 * small and sent in one write, no upgrades, no proxies, no trailers kept. Anything it does
 * not understand — a malformed head, a body past its limit, bytes after the answer — ends
 * the call as a failure, which the contract counts as unknown and retries with the same
 * requestId.
 */

export interface Http1Answer {
  status: number;
  /** Header names in lowercase; a header sent twice joined with ', ' (as node:http does). */
  headers: Map<string, string>;
  body: Buffer;
}

export interface Http1Request {
  method: 'GET' | 'POST';
  /** Extra request headers; Host, Content-Length and Connection are set here. */
  headers: Record<string, string>;
  body?: string;
  /** Connection to last byte of the answer. */
  timeoutMs: number;
}

/** The call took longer than its timeout. */
export class NoAnswerInTime extends Error {}

/** How long an idle connection is kept: under a wallet's own keep-alive timeout (often 5 s). */
export const IDLE_MS = 4_000;
const MAX_HEAD_BYTES = 16 * 1024;
/** A statement page (100,000 entries at most) fits well under it. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

type Framing = { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

/**
 * Parses one answer from the bytes of a connection, fed as they come. `done` once the answer
 * is complete; `keepAlive` whether the connection may carry the next call.
 */
export class AnswerParser {
  private buffered: Buffer = Buffer.alloc(0);
  private status = 0;
  private headers = new Map<string, string>();
  private framing: Framing | null = null;
  private chunks: Buffer[] = [];
  private bodyBytes = 0;
  /** In chunked framing: bytes of the current chunk still to read, or null between chunks. */
  private chunkLeft: number | null = null;
  private http10 = false;
  done = false;
  keepAlive = false;

  /** Takes more bytes; throws on anything malformed or too large. */
  feed(bytes: Buffer): void {
    if (this.done) throw new Error('bytes after the answer');
    this.buffered = this.buffered.length === 0 ? bytes : Buffer.concat([this.buffered, bytes]);
    while (!this.done) {
      if (this.framing === null) {
        if (!this.readHead()) return;
      } else if (!this.readBody()) return;
    }
    if (this.buffered.length > 0) throw new Error('bytes after the answer');
  }

  /** The connection ended: an answer framed by the close ends here; any other is cut off. */
  end(): void {
    if (this.done) return;
    if (this.framing?.kind !== 'close') throw new Error('the answer was cut off');
    this.finish(false);
  }

  answer(): Http1Answer {
    return { status: this.status, headers: this.headers, body: Buffer.concat(this.chunks) };
  }

  private readHead(): boolean {
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.buffered.length > MAX_HEAD_BYTES) throw new Error('the answer head is too large');
      return false;
    }
    if (end > MAX_HEAD_BYTES) throw new Error('the answer head is too large');
    const head = this.buffered.toString('latin1', 0, end);
    this.buffered = this.buffered.subarray(end + 4);
    // Line by line without splitting the head into an array first: one answer a wallet call.
    let lineEnd = head.indexOf('\r\n');
    if (lineEnd < 0) lineEnd = head.length;
    const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(head.slice(0, lineEnd));
    if (!statusLine) throw new Error('not an HTTP/1 answer');
    const status = Number(statusLine[2]);
    const headers = new Map<string, string>();
    for (let start = lineEnd + 2; start < head.length; start = lineEnd + 2) {
      lineEnd = head.indexOf('\r\n', start);
      if (lineEnd < 0) lineEnd = head.length;
      const colon = head.indexOf(':', start);
      if (colon <= start || colon > lineEnd) throw new Error('a malformed answer header');
      const name = head.slice(start, colon).trim().toLowerCase();
      const value = head.slice(colon + 1, lineEnd).trim();
      const before = headers.get(name);
      headers.set(name, before === undefined ? value : `${before}, ${value}`);
    }
    // An interim answer (100 Continue…) precedes the real one.
    if (status >= 100 && status < 200) return true;
    this.status = status;
    this.headers = headers;
    this.http10 = statusLine[1] === '0';
    this.framing = framingOf(status, headers);
    return true;
  }

  private readBody(): boolean {
    const framing = this.framing!;
    if (framing.kind === 'close') {
      this.take(this.buffered.length);
      return false;
    }
    if (framing.kind === 'length') {
      const n = Math.min(framing.left, this.buffered.length);
      this.take(n);
      framing.left -= n;
      if (framing.left === 0) this.finish(true);
      return framing.left === 0;
    }
    return this.readChunked();
  }

  private readChunked(): boolean {
    if (this.chunkLeft === null) {
      const lineEnd = this.buffered.indexOf('\r\n');
      if (lineEnd < 0) {
        if (this.buffered.length > 1024) throw new Error('a malformed chunk');
        return false;
      }
      const size = /^([0-9a-fA-F]{1,8})(?:;.*)?$/.exec(this.buffered.toString('latin1', 0, lineEnd));
      if (!size) throw new Error('a malformed chunk');
      const bytes = parseInt(size[1]!, 16);
      if (bytes === 0) {
        // The last chunk: trailers (ignored) end with an empty line.
        const trailerEnd = this.buffered.indexOf('\r\n\r\n', lineEnd);
        const empty = this.buffered.indexOf('\r\n', lineEnd + 2) === lineEnd + 2;
        if (empty) this.buffered = this.buffered.subarray(lineEnd + 4);
        else if (trailerEnd >= 0) this.buffered = this.buffered.subarray(trailerEnd + 4);
        else return false;
        this.finish(true);
        return true;
      }
      this.buffered = this.buffered.subarray(lineEnd + 2);
      this.chunkLeft = bytes;
    }
    const n = Math.min(this.chunkLeft, this.buffered.length);
    this.take(n);
    this.chunkLeft -= n;
    if (this.chunkLeft > 0 || this.buffered.length < 2) return false;
    if (this.buffered[0] !== 0x0d || this.buffered[1] !== 0x0a) throw new Error('a malformed chunk');
    this.buffered = this.buffered.subarray(2);
    this.chunkLeft = null;
    return true;
  }

  private take(n: number): void {
    if (n === 0) return;
    this.bodyBytes += n;
    if (this.bodyBytes > MAX_BODY_BYTES) throw new Error('the answer body is too large');
    this.chunks.push(this.buffered.subarray(0, n));
    this.buffered = this.buffered.subarray(n);
  }

  private finish(reusable: boolean): void {
    this.done = true;
    const connection = this.headers.get('connection')?.toLowerCase() ?? '';
    this.keepAlive = reusable && (this.http10 ? connection === 'keep-alive' : !/\bclose\b/.test(connection));
  }
}

function framingOf(status: number, headers: Map<string, string>): Framing {
  if (status === 204 || status === 304) return { kind: 'length', left: 0 };
  const encoding = headers.get('transfer-encoding');
  if (encoding !== undefined) {
    if (encoding.toLowerCase() !== 'chunked') throw new Error(`an unsupported transfer encoding: ${encoding}`);
    return { kind: 'chunked' };
  }
  const length = headers.get('content-length');
  if (length === undefined) return { kind: 'close' };
  if (!/^\d{1,15}$/.test(length)) throw new Error('a malformed content length');
  const left = Number(length);
  if (left > MAX_BODY_BYTES) throw new Error('the answer body is too large');
  return { kind: 'length', left };
}

interface Origin {
  key: string;
  host: string;
  port: number;
  secure: boolean;
}

/** Each URL's origin, worked out once (the client parses each call's URL once). */
const origins = new WeakMap<URL, Origin>();

function originOf(url: URL): Origin {
  let origin = origins.get(url);
  if (!origin) {
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:')
      throw new Error(`the wallet URL must be http or https, not ${url.protocol}`);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port || (secure ? 443 : 80));
    origin = { key: `${url.protocol}//${host}:${port}`, host, port, secure };
    origins.set(url, origin);
  }
  return origin;
}

/** Idle connections per origin, the most recently used last. */
const idle = new Map<string, Connection[]>();
/** Ends connections idle for longer than IDLE_MS; runs only while some are idle, and holds no process. */
let sweeper: NodeJS.Timeout | null = null;

function sweepIdle(): void {
  const now = performance.now();
  for (const list of [...idle.values()]) {
    for (const connection of list.filter((c) => !c.reusable(now))) connection.end();
  }
  if (idle.size === 0 && sweeper !== null) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

/**
 * One connection to the wallet. Its listeners are attached once, for its whole life, and act
 * on the call it carries: a call adds no listener, closure or timer besides its own timeout.
 * Idle, anything from the wallet (bytes, a close, an error) ends it.
 */
class Connection {
  private exchange: Exchange | null = null;
  /** When it was last put back idle (performance.now()). */
  idleSince = 0;

  constructor(
    readonly key: string,
    readonly socket: net.Socket,
  ) {
    socket.on('data', (bytes: Buffer) => (this.exchange ? this.exchange.onData(bytes) : this.end()));
    socket.on('close', () => (this.exchange ? this.exchange.onClose() : this.end()));
    socket.on('error', (error: Error) => (this.exchange ? this.exchange.fail(error) : this.end()));
  }

  /** Whether the wallet has not ended it (a half-closed one, whose close is not handled yet, would fail the call). */
  get usable(): boolean {
    return !this.socket.destroyed && this.socket.writable && !this.socket.readableEnded;
  }

  /** Idle, whether it may carry the next call at `now`: usable, and idle for less than IDLE_MS. */
  reusable(now: number): boolean {
    return this.usable && now - this.idleSince < IDLE_MS;
  }

  send(message: string, exchange: Exchange): void {
    this.exchange = exchange;
    this.socket.ref();
    this.socket.write(message);
  }

  /** The call is over: kept for the next one if the answer allows it, else closed. */
  release(keep: boolean): void {
    this.exchange = null;
    if (!keep || !this.usable) {
      this.socket.destroy();
      return;
    }
    this.idleSince = performance.now();
    this.socket.unref();
    let list = idle.get(this.key);
    if (!list) idle.set(this.key, (list = []));
    list.push(this);
    sweeper ??= setInterval(sweepIdle, 1000).unref();
  }

  /** Closes it, idle or not; a call it carries fails through its close. */
  end(): void {
    const list = idle.get(this.key);
    const at = list?.indexOf(this) ?? -1;
    if (at >= 0) {
      list!.splice(at, 1);
      if (list!.length === 0) idle.delete(this.key);
    }
    this.socket.destroy();
  }
}

/** One call on a connection: its answer parsed as it comes, its timeout; settles once. */
class Exchange {
  private readonly parser = new AnswerParser();
  private readonly timer: NodeJS.Timeout;
  private settled = false;

  constructor(
    private readonly connection: Connection,
    timeoutMs: number,
    private readonly resolve: (answer: Http1Answer) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.timer = setTimeout(failLate, timeoutMs, this);
  }

  onData(bytes: Buffer): void {
    try {
      this.parser.feed(bytes);
    } catch (error) {
      return this.fail(error as Error);
    }
    if (this.parser.done) this.succeed();
  }

  onClose(): void {
    if (this.settled) return;
    try {
      this.parser.end();
    } catch (error) {
      return this.fail(error as Error);
    }
    this.succeed();
  }

  fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.connection.release(false);
    this.reject(error);
  }

  private succeed(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.connection.release(this.parser.keepAlive);
    this.resolve(this.parser.answer());
  }
}

function failLate(exchange: Exchange): void {
  exchange.fail(new NoAnswerInTime());
}

/** The most recently used idle connection to `key` that is still usable and not expired; ends the others. */
function takeIdle(key: string): Connection | null {
  const list = idle.get(key);
  const now = performance.now();
  while (list && list.length > 0) {
    const connection = list.pop()!;
    if (connection.reusable(now)) {
      if (list.length === 0) idle.delete(key);
      return connection;
    }
    connection.end();
  }
  idle.delete(key);
  return null;
}

function connect(origin: Origin): Connection {
  const socket = origin.secure
    ? tls.connect({ host: origin.host, port: origin.port, servername: net.isIP(origin.host) ? undefined : origin.host })
    : net.connect({ host: origin.host, port: origin.port });
  socket.setNoDelay(true);
  return new Connection(origin.key, socket);
}

function requestHead(url: URL, request: Http1Request): string {
  let head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(request.headers)) {
    if (!/^[A-Za-z0-9-]+$/.test(name) || !HEADER_VALUE.test(value)) throw new Error(`a malformed header: ${name}`);
    head += `${name}: ${value}\r\n`;
  }
  if (request.body !== undefined) head += `Content-Length: ${Buffer.byteLength(request.body)}\r\n`;
  return `${head}\r\n`;
}

/** One exchange on a kept-alive (or new) connection; rejects on any failure, never answers twice. */
export function http1Request(url: URL, request: Http1Request): Promise<Http1Answer> {
  return new Promise((resolve, reject) => {
    const origin = originOf(url);
    const message = requestHead(url, request) + (request.body ?? '');
    const connection = takeIdle(origin.key) ?? connect(origin);
    connection.send(message, new Exchange(connection, request.timeoutMs, resolve, reject));
  });
}

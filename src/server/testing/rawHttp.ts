import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One TCP connection to a server, driven by hand: what no HTTP client sends (malformed
 * request lines, a body a byte at a time, an idle keep-alive) and what it sees back.
 */
export class RawConnection {
  readonly socket: net.Socket;
  /** Resolves once the connection is closed, by either side. */
  readonly closed: Promise<void>;
  private buffer = '';
  private waiting: (() => void) | null = null;
  private isClosed = false;
  /** Resolves once connected (or closed first, as a refused connection is). */
  readonly ready: Promise<void>;

  constructor(url: string, localAddress?: string) {
    const { hostname, port } = new URL(url);
    this.socket = net.connect({ host: hostname, port: Number(port), localAddress });
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1');
      this.wake();
    });
    // A reset is a close too: the tests look at what was received before it.
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        this.isClosed = true;
        this.wake();
        resolve();
      }),
    );
    this.ready = new Promise((resolve) => {
      this.socket.once('connect', () => resolve());
      void this.closed.then(() => resolve());
    });
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  /** Everything received so far and not yet taken as a response. */
  get received(): string {
    return this.buffer;
  }

  write(text: string): Promise<void> {
    return new Promise((resolve, reject) =>
      this.socket.write(text, 'latin1', (error) => (error ? reject(error) : resolve())),
    );
  }

  /** The next whole response (content-length framed); null if the connection closes first. */
  async response(): Promise<RawResponse | null> {
    for (;;) {
      const parsed = takeResponse(this.buffer);
      if (parsed) {
        this.buffer = parsed.rest;
        return parsed.response;
      }
      if (this.isClosed) return null;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}

function takeResponse(buffer: string): { response: RawResponse; rest: string } | null {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = buffer.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bodyStart = end + 4;
  if (buffer.length < bodyStart + length) return null;
  return {
    response: {
      status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? NaN),
      headers,
      body: Buffer.from(buffer.slice(bodyStart, bodyStart + length), 'latin1').toString('utf8'),
    },
    rest: buffer.slice(bodyStart + length),
  };
}

/** Sends one request on a new connection and returns its answer (null: closed without one). */
export async function rawRequest(url: string, request: string): Promise<RawResponse | null> {
  const connection = new RawConnection(url);
  try {
    await connection.ready;
    if (connection.isOpen) await connection.write(request).catch(() => {});
    return await connection.response();
  } finally {
    connection.destroy();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The whole request, headers and body, must arrive within `requestTimeoutMs`: a body sent a
 * byte at a time cannot hold a connection. Node looks every connectionsCheckingInterval (30 s
 * by default: far too coarse for a timeout of seconds).
 */
export function requestTimeoutOptions(requestTimeoutMs: number): { requestTimeout: number; http: ServerOptions } {
  return {
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeoutMs / 4))),
    },
  };
}

export interface ConnectionCaps {
  /** 0: no cap per address. */
  maxConnectionsPerAddress: number;
  maxConnections: number;
}

interface Tracked {
  address: string;
  /** Responses not yet sent in full on this connection. */
  responses: Set<ServerResponse>;
  /** socket.bytesRead when its last response ended: more since means a request is arriving. */
  bytesReadWhenIdle: number;
}

/**
 * The server's open connections: refuses those over the caps (per address and in all:
 * otherwise a few clients holding connections open could take every slot) and, on
 * shutdown, closes idle ones at once and the others as soon as their answer is sent.
 * A refused connection is closed without an answer, as a full listen queue would: the
 * cap is reached before any request has been read.
 */
export class Connections {
  private readonly open = new Map<Socket, Tracked>();
  private readonly perAddress = new Map<string, number>();
  private isDraining = false;
  /** Connections refused since start (over a cap, or arriving while draining). */
  refused = 0;

  constructor(
    server: Server,
    private readonly caps: ConnectionCaps,
  ) {
    server.on('connection', (socket: Socket) => this.accept(socket));
    // First, so that a response the app ends at once is still counted.
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      this.track(request, response),
    );
  }

  get draining(): boolean {
    return this.isDraining;
  }

  private accept(socket: Socket): void {
    const address = socket.remoteAddress ?? 'unknown';
    const fromAddress = this.perAddress.get(address) ?? 0;
    const { maxConnectionsPerAddress, maxConnections } = this.caps;
    if (
      this.draining ||
      this.open.size >= maxConnections ||
      (maxConnectionsPerAddress > 0 && fromAddress >= maxConnectionsPerAddress)
    ) {
      this.refused++;
      socket.destroy();
      return;
    }
    this.open.set(socket, { address, responses: new Set(), bytesReadWhenIdle: 0 });
    this.perAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      this.open.delete(socket);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left === 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
    });
  }

  private track(request: IncomingMessage, response: ServerResponse): void {
    const socket = request.socket;
    const tracked = this.open.get(socket);
    if (!tracked) return;
    tracked.responses.add(response);
    if (this.draining) response.shouldKeepAlive = false;
    response.once('close', () => {
      tracked.responses.delete(response);
      tracked.bytesReadWhenIdle = socket.bytesRead;
      // Its answer is written: a draining server keeps no connection for a next request.
      if (this.draining && tracked.responses.size === 0) socket.end();
    });
  }

  /**
   * Shutdown begins: no new connection; idle ones (no request in flight, no byte of a next
   * one received) are closed now; the others say `Connection: close` and end after their answer.
   */
  startDrain(): void {
    if (this.draining) return;
    this.isDraining = true;
    for (const [socket, tracked] of this.open) {
      for (const response of tracked.responses) if (!response.headersSent) response.shouldKeepAlive = false;
      if (tracked.responses.size === 0 && socket.bytesRead === tracked.bytesReadWhenIdle) socket.destroy();
    }
  }

  /** The drain time is over: every connection still open is cut. Returns how many were. */
  cutAll(): number {
    const cut = this.open.size;
    for (const socket of this.open.keys()) socket.destroy();
    return cut;
  }
}

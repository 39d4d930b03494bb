import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnswerTooLarge, BytesAfterAnswer, NoAnswerInTime, send, type TransportRequest } from './transport.ts';

/**
 * The transport against a raw TCP wallet that writes whatever bytes a test gives it: every
 * answer that is not whole and well framed fails the call (which the client counts as
 * unknown), and nothing of one call's answer reaches another.
 */

type Respond = (socket: net.Socket, request: string) => void;

/** A raw TCP wallet on a port of its own (so a test starts with no kept connection): `respond` answers each request. */
async function rawWallet(first: Respond) {
  const wallet = { respond: first, connections: [] as net.Socket[], base: '', close: async () => {} };
  const server = net.createServer((socket) => {
    wallet.connections.push(socket);
    let buffered = '';
    socket.on('data', (bytes) => {
      buffered += bytes.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const request = buffered.slice(0, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        wallet.respond(socket, request);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  wallet.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  wallet.close = async () => {
    for (const socket of wallet.connections) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return wallet;
}

describe('send', () => {
  let wallet: Awaited<ReturnType<typeof rawWallet>>;
  beforeEach(async () => {
    wallet = await rawWallet(() => {});
  });
  afterEach(() => wallet.close());

  const request = (over: Partial<TransportRequest> = {}): TransportRequest => ({
    method: 'POST',
    path: '/bet?x=1',
    headers: { 'content-type': 'application/json', 'x-spincake-signature': 'ab' },
    body: '{}',
    timeoutMs: 5000,
    maxBodyBytes: 64 * 1024,
    ...over,
  });
  const post = (body: string, timeoutMs = 5000) => send(wallet.base, request({ body, timeoutMs }));
  const ok = (socket: net.Socket, extra = '') => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\n${extra}\r\n{}`);
  /**
   * A few turns of the event loop, as a caller spends between two calls: undici checks an idle
   * connection for what the wallet sent on it (bytes, a FIN) in the turn after an answer before
   * it reuses it, and a call made in the same turn opens another.
   */
  const aTurnLater = () => new Promise((resolve) => setTimeout(resolve, 5));

  /** Writes `raw` to the socket in pieces of `step` bytes, one turn of the event loop apart. */
  function writeInPieces(socket: net.Socket, raw: string, step: number): void {
    const bytes = Buffer.from(raw, 'latin1');
    let at = 0;
    const next = () => {
      if (at >= bytes.length || socket.destroyed) return;
      socket.write(bytes.subarray(at, at + step));
      at += step;
      setTimeout(next, 1);
    };
    next();
  }

  const framed: [string, string, string, boolean][] = [
    ['a content length', 'HTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-A: 1\r\n\r\n{"ok":true}', '{"ok":true}', true],
    [
      'chunks, with an extension and a trailer',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\n{"ok\r\n7\r\n":true}\r\n0\r\nX-T: 1\r\n\r\n',
      '{"ok":true}',
      true,
    ],
    [
      'chunks, no trailer',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\nB\r\n{"ok":true}\r\n0\r\n\r\n',
      '{"ok":true}',
      true,
    ],
    [
      'an interim 103 before the answer',
      'HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}',
      '{}',
      true,
    ],
    ['Connection: close', 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}', '{}', false],
    ['HTTP/1.0 without keep-alive', 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}', '{}', false],
    [
      'HTTP/1.0 with keep-alive',
      'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n{}',
      '{}',
      true,
    ],
    ['a 204', 'HTTP/1.1 204 No Content\r\n\r\n', '', true],
  ];
  for (const [what, raw, body, keepAlive] of framed) {
    it(`reads an answer framed by ${what}, whole or in pieces, and keeps its connection only if it may`, async () => {
      for (const step of [raw.length, 1, 3]) {
        wallet.respond = (socket) => writeInPieces(socket, raw, step);
        const before = wallet.connections.length;
        const answer = await post('{}');
        expect(answer.body.toString('latin1')).toBe(body);
        // The next call: on the same connection if this answer let it be kept, else on a new one.
        wallet.respond = (socket) => ok(socket);
        await aTurnLater();
        await post('{}');
        expect(wallet.connections.length - before).toBe(keepAlive ? 1 : 2);
        for (const socket of wallet.connections) socket.destroy();
        await new Promise((resolve) => setTimeout(resolve, 20));
        wallet.connections.length = 0;
      }
    });
  }

  it('reads an answer framed by the end of the connection, and never keeps that connection', async () => {
    wallet.respond = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\n\r\n{"a":');
      setTimeout(() => socket.end('1}'), 10);
    };
    const answer = await post('{}');
    expect(answer.body.toString()).toBe('{"a":1}');
    wallet.respond = (socket) => ok(socket);
    await post('{}');
    expect(wallet.connections).toHaveLength(2);
  });

  it('keeps the status and headers, names in lowercase, a repeated header as both values', async () => {
    wallet.respond = (socket) => socket.write('HTTP/1.1 503 Busy\r\nX-Sig: a\r\nx-sig: b\r\nContent-Length: 0\r\n\r\n');
    const answer = await post('{}');
    expect(answer.status).toBe(503);
    expect(answer.headers['x-sig']).toEqual(['a', 'b']);
  });

  it('counts an answer that ends before its length as cut off', async () => {
    wallet.respond = (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n{}');
    await expect(post('{}')).rejects.toThrow();
  });

  const malformed: [string, string, (error: unknown) => void][] = [
    [
      'a 100 Continue no request asked for',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}',
      (error) => expect(String(error)).toMatch(/bad response/),
    ],
    [
      'bytes after the answer',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}x',
      (error) => expect(error).toBeInstanceOf(BytesAfterAnswer),
    ],
    [
      'a status line of another protocol',
      'ICY 200 OK\r\n\r\n',
      (error) => expect(String(error)).toMatch(/HTTPParserError|Expected HTTP/),
    ],
    [
      'a header without a colon',
      'HTTP/1.1 200 OK\r\nbroken\r\n\r\n',
      (error) => expect(String(error)).toMatch(/HTTPParserError|header/i),
    ],
    [
      'a negative length',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      (error) => expect(String(error)).toMatch(/HTTPParserError|length/i),
    ],
    [
      'two lengths',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      (error) => expect(String(error)).toMatch(/HTTPParserError|length/i),
    ],
    [
      'a gzip body, framed by nothing it can read',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n',
      (error) => expect(error).toBeInstanceOf(NoAnswerInTime),
    ],
    [
      'a chunk size that is not hex',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      (error) => expect(String(error)).toMatch(/HTTPParserError|chunk/i),
    ],
    [
      'a chunk longer than its size',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}}\r\n0\r\n\r\n',
      (error) => expect(String(error)).toMatch(/HTTPParserError|chunk/i),
    ],
    [
      'a head past 16 KiB',
      `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(17 * 1024)}`,
      (error) => expect(String(error)).toMatch(/HeadersOverflowError|header/i),
    ],
    [
      'a body past its cap, as its length says',
      'HTTP/1.1 200 OK\r\nContent-Length: 65537\r\n\r\n',
      (error) => expect(error).toBeInstanceOf(AnswerTooLarge),
    ],
    [
      'a body past its cap, as it comes',
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10001\r\n${'x'.repeat(0x10001)}\r\n0\r\n\r\n`,
      (error) => expect(error).toBeInstanceOf(AnswerTooLarge),
    ],
  ];
  for (const [what, raw, check] of malformed) {
    it(`refuses ${what}, and answers the next call on a fresh connection`, async () => {
      wallet.respond = (socket) => socket.write(raw);
      const error = await post('{}', 1000).then(
        () => null,
        (failed: unknown) => failed,
      );
      expect(error).not.toBeNull();
      check(error);
      wallet.respond = (socket) => ok(socket);
      expect((await post('{}')).status).toBe(200);
      expect(wallet.connections).toHaveLength(2);
    });
  }

  it('sends one well-formed request: target, Host, headers, length and body', async () => {
    let seen = '';
    wallet.respond = (socket, raw) => {
      seen = Buffer.from(raw, 'latin1').toString('utf8');
      ok(socket);
    };
    const answer = await post('{"é":1}');
    expect(answer.status).toBe(200);
    const host = wallet.base.slice('http://'.length);
    const lines = seen.split('\r\n');
    expect(lines[0]).toBe('POST /bet?x=1 HTTP/1.1');
    expect(lines).toContain(`host: ${host}`);
    expect(lines).toContain('content-type: application/json');
    expect(lines).toContain('x-spincake-signature: ab');
    expect(lines).toContain('content-length: 8');
    expect(seen.endsWith('\r\n\r\n{"é":1}')).toBe(true);
  });

  it('keeps one connection for calls in turn, and opens more for calls at once, up to its cap', async () => {
    wallet.respond = (socket) => ok(socket);
    for (let i = 0; i < 5; i++) {
      await post('{}');
      await aTurnLater();
    }
    expect(wallet.connections).toHaveLength(1);
    wallet.respond = (socket) => setTimeout(() => ok(socket), 20);
    await Promise.all([post('{}'), post('{}'), post('{}')]);
    expect(wallet.connections).toHaveLength(3);
    // A pool of two: five calls at once share two connections.
    const capped = () => send(wallet.base, request(), { connections: 2 });
    const before = wallet.connections.length;
    const answers = await Promise.all([capped(), capped(), capped(), capped(), capped()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(wallet.connections.length - before).toBe(2);
  });

  it('reads an answer sent in pieces and chunked, as node:http sends a streamed one', async () => {
    const wallet = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":');
      setTimeout(() => response.end('"OK"}'), 10);
    });
    await new Promise<void>((resolve) => wallet.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = wallet.address() as AddressInfo;
      const answer = await send(
        `http://127.0.0.1:${port}`,
        request({ method: 'GET', path: '/balance', body: undefined }),
      );
      expect(answer.body.toString()).toBe('{"status":"OK"}');
    } finally {
      wallet.closeAllConnections();
      await new Promise((resolve) => wallet.close(resolve));
    }
  });

  it('does not reuse a connection the answer closes, nor one the wallet closed while idle', async () => {
    wallet.respond = (socket) => ok(socket, 'Connection: close\r\n');
    await post('{}');
    await post('{}');
    expect(wallet.connections).toHaveLength(2);
    wallet.respond = (socket) => ok(socket);
    await aTurnLater();
    await post('{}');
    // The wallet drops the idle connection: the next call opens a fresh one and is answered.
    wallet.connections.at(-1)!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await post('{}');
    expect(answer.status).toBe(200);
    expect(wallet.connections).toHaveLength(4);
  });

  it('does not reuse a connection the wallet half-closed while idle', async () => {
    wallet.respond = (socket) => ok(socket);
    await post('{}');
    // The wallet ends its side (a FIN) and keeps reading: the connection is no longer usable.
    wallet.connections[0]!.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await post('{}')).status).toBe(200);
    expect(wallet.connections).toHaveLength(2);
  });

  it('ends an idle connection the wallet writes on, and answers the next call on a fresh one', async () => {
    wallet.respond = (socket) => ok(socket);
    await post('{}');
    const first = wallet.connections[0]!;
    const closed = new Promise((resolve) => first.once('close', resolve));
    first.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
    await closed;
    expect((await post('{}')).status).toBe(200);
    expect(wallet.connections).toHaveLength(2);
  });

  it('does not let an answer that comes after its timeout reach the next call', async () => {
    // The first answer comes late; the second call is answered later still, so that a kept
    // connection would hand it the first one.
    let calls = 0;
    wallet.respond = (socket) => {
      calls++;
      const late = calls === 1;
      setTimeout(() => ok(socket, late ? 'X-Late: 1\r\n' : ''), late ? 150 : 300);
    };
    await expect(post('{}', 50)).rejects.toBeInstanceOf(NoAnswerInTime);
    const answer = await post('{}');
    expect(answer.headers['x-late']).toBeUndefined();
    expect(wallet.connections).toHaveLength(2);
  });

  it('ends a connection left idle past the wallet’s keep-alive hint, and opens a fresh one for the next call', async () => {
    // timeout=2: kept 2 s less the margin, 1 s.
    wallet.respond = (socket) => ok(socket, 'Keep-Alive: timeout=2\r\n');
    await post('{}');
    await aTurnLater();
    await post('{}');
    expect(wallet.connections).toHaveLength(1);
    const closed = new Promise((resolve) => wallet.connections[0]!.once('close', resolve));
    await closed;
    await post('{}');
    expect(wallet.connections).toHaveLength(2);
  });

  it('fails a call whose answer does not come in time, a reset, and an answer past its end', async () => {
    wallet.respond = () => {};
    await expect(post('{}', 100)).rejects.toBeInstanceOf(NoAnswerInTime);
    wallet.respond = (socket) => socket.destroy();
    await expect(post('{}')).rejects.toThrow(/other side closed|ECONNRESET|EPIPE|closed/);
    wallet.respond = (socket) => ok(socket, 'Content-Length: 2\r\n');
    await expect(post('{}')).rejects.toThrow();
    wallet.respond = (socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}{}');
    await expect(post('{}')).rejects.toBeInstanceOf(BytesAfterAnswer);
  });

  it('times out a call that waits for a connection past its timeout, without sending it', async () => {
    wallet.respond = (socket) => setTimeout(() => ok(socket), 300);
    const busy = send(wallet.base, request(), { connections: 1 });
    const waiting = send(wallet.base, request({ timeoutMs: 100 }), { connections: 1 });
    await expect(waiting).rejects.toBeInstanceOf(NoAnswerInTime);
    expect((await busy).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(wallet.connections).toHaveLength(1);
  });

  it('refuses a header that would break the request before sending anything', async () => {
    await expect(send(wallet.base, request({ headers: { 'x-a': 'a\r\nX-B: b' } }))).rejects.toThrow(/header/i);
    expect(wallet.connections).toHaveLength(0);
  });
});

import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerParser, http1Request, IDLE_MS, NoAnswerInTime } from './http1.ts';

/** Feeds `raw` in pieces of `step` bytes; the parser after the last one. */
function parse(raw: string, step = raw.length): AnswerParser {
  const parser = new AnswerParser();
  const bytes = Buffer.from(raw, 'latin1');
  for (let at = 0; at < bytes.length; at += step) parser.feed(bytes.subarray(at, at + step));
  return parser;
}

describe('AnswerParser', () => {
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
      'an interim 100 before the answer',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}',
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
    it(`reads an answer framed by ${what}, whole or byte by byte`, () => {
      for (const step of [raw.length, 1, 3]) {
        const parser = parse(raw, step);
        expect(parser.done).toBe(true);
        expect(parser.answer().body.toString('latin1')).toBe(body);
        expect(parser.keepAlive).toBe(keepAlive);
      }
    });
  }

  it('reads an answer framed by the end of the connection, and never keeps that connection', () => {
    const parser = parse('HTTP/1.1 200 OK\r\n\r\n{"a":', 4);
    expect(parser.done).toBe(false);
    parser.feed(Buffer.from('1}'));
    parser.end();
    expect(parser.done).toBe(true);
    expect(parser.keepAlive).toBe(false);
    expect(parser.answer().body.toString()).toBe('{"a":1}');
  });

  it('keeps the status and headers, names in lowercase, a repeated header joined', () => {
    const parser = parse('HTTP/1.1 503 Busy\r\nX-Sig: a\r\nx-sig: b\r\nContent-Length: 0\r\n\r\n');
    const answer = parser.answer();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('x-sig')).toBe('a, b');
  });

  it('counts an answer that ends before its length as cut off', () => {
    const parser = parse('HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n{}');
    expect(() => parser.end()).toThrow(/cut off/);
  });

  const malformed: [string, string, RegExp][] = [
    ['bytes after the answer', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}x', /after the answer/],
    ['a status line of another protocol', 'ICY 200 OK\r\n\r\n', /not an HTTP\/1 answer/],
    ['a header without a colon', 'HTTP/1.1 200 OK\r\nbroken\r\n\r\n', /malformed answer header/],
    ['a negative length', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /malformed content length/],
    ['two lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}', /malformed content length/],
    ['a gzip body', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n', /unsupported transfer encoding/],
    ['a chunk size that is not hex', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /malformed chunk/],
    [
      'a chunk longer than its size',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}}\r\n0\r\n\r\n',
      /malformed chunk/,
    ],
    ['a head past 16 KiB', `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(17 * 1024)}`, /head is too large/],
    ['a body past 64 MiB', 'HTTP/1.1 200 OK\r\nContent-Length: 67108865\r\n\r\n', /body is too large/],
  ];
  for (const [what, raw, error] of malformed) {
    it(`refuses ${what}`, () => {
      expect(() => parse(raw)).toThrow(error);
    });
  }
});

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

describe('http1Request', () => {
  let wallet: Awaited<ReturnType<typeof rawWallet>>;
  beforeEach(async () => {
    wallet = await rawWallet(() => {});
  });
  afterEach(() => wallet.close());

  const post = (body: string, timeoutMs = 5000) =>
    http1Request(new URL(`${wallet.base}/bet?x=1`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Spincake-Signature': 'ab' },
      body,
      timeoutMs,
    });
  const ok = (socket: net.Socket, extra = '') => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\n${extra}\r\n{}`);

  it('sends one well-formed request: target, Host, headers, length and body', async () => {
    let seen = '';
    wallet.respond = (socket, request) => {
      seen = Buffer.from(request, 'latin1').toString('utf8');
      ok(socket);
    };
    const answer = await post('{"é":1}');
    expect(answer.status).toBe(200);
    const host = wallet.base.slice('http://'.length);
    expect(seen).toBe(
      `POST /bet?x=1 HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nX-Spincake-Signature: ab\r\n` +
        'Content-Length: 8\r\n\r\n{"é":1}',
    );
  });

  it('keeps one connection for calls in turn, and opens more for calls at once', async () => {
    wallet.respond = (socket) => ok(socket);
    for (let i = 0; i < 5; i++) await post('{}');
    expect(wallet.connections).toHaveLength(1);
    wallet.respond = (socket) => setTimeout(() => ok(socket), 20);
    await Promise.all([post('{}'), post('{}'), post('{}')]);
    expect(wallet.connections).toHaveLength(3);
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
      const answer = await http1Request(new URL(`http://127.0.0.1:${port}/balance`), {
        method: 'GET',
        headers: {},
        timeoutMs: 5000,
      });
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
    await post('{}');
    // The wallet drops the idle connection: the next call opens a fresh one and is answered.
    wallet.connections.at(-1)!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await post('{}');
    expect(answer.status).toBe(200);
    expect(wallet.connections).toHaveLength(4);
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
    expect(answer.headers.get('x-late')).toBeUndefined();
    expect(wallet.connections).toHaveLength(2);
  });

  it('ends a connection left idle for longer than IDLE_MS, and opens a fresh one for the next call', async () => {
    wallet.respond = (socket) => ok(socket);
    vi.useFakeTimers({ toFake: ['performance', 'setInterval', 'clearInterval'] });
    try {
      await post('{}');
      await post('{}');
      expect(wallet.connections).toHaveLength(1);
      const closed = new Promise((resolve) => wallet.connections[0]!.once('close', resolve));
      vi.advanceTimersByTime(IDLE_MS + 1000);
      await closed;
      await post('{}');
      expect(wallet.connections).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails a call whose answer does not come in time, a reset, and an answer past its end', async () => {
    wallet.respond = () => {};
    await expect(post('{}', 100)).rejects.toBeInstanceOf(NoAnswerInTime);
    wallet.respond = (socket) => socket.destroy();
    await expect(post('{}')).rejects.toThrow(/cut off|ECONNRESET|EPIPE/);
    wallet.respond = (socket) => ok(socket, 'Content-Length: 2\r\n');
    await expect(post('{}')).rejects.toThrow(/content length/);
    wallet.respond = (socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}{}');
    await expect(post('{}')).rejects.toThrow(/after the answer/);
  });

  it('refuses a header that would break the request before sending anything', async () => {
    await expect(
      http1Request(new URL(`${wallet.base}/bet`), {
        method: 'POST',
        headers: { 'X-A': 'a\r\nX-B: b' },
        timeoutMs: 1000,
      }),
    ).rejects.toThrow(/malformed header/);
    await expect(
      http1Request(new URL('ftp://127.0.0.1/bet'), { method: 'GET', headers: {}, timeoutMs: 1000 }),
    ).rejects.toThrow(/http or https/);
    expect(wallet.connections).toHaveLength(0);
  });
});

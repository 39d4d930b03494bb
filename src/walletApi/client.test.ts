import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWallet, getFullStatement, getStatement, statementTarget, WalletRequestError } from './client.ts';
import { keyringOf, singleKeyring } from './keyring.ts';
import {
  KEY_ID_HEADER_LOWER,
  SIGNATURE_HEADER,
  SIGNATURE_HEADER_LOWER,
  signedHeaders,
  signMessage,
  TIMESTAMP_HEADER,
  TIMESTAMP_HEADER_LOWER,
  verifyMessage,
} from './signature.ts';

const SECRET = 'a-wallet-secret-of-at-least-32-chars!';
const bet = { requestId: 'b-1', playerId: 'alice', roundId: 'play-1', amountCents: 200, currency: 'EUR' } as const;

/** What the fake wallet does with the next request. */
type Behaviour = (request: http.IncomingMessage, raw: string, response: http.ServerResponse) => void;
let behaviour: Behaviour = () => {};
const seen: { url: string; raw: string; headers: http.IncomingHttpHeaders; contentType: string | undefined }[] = [];
let server: http.Server;
let url = '';

/** The headers that sign `body` as the answer to the request `response` answers (its path, now, SECRET). */
function signedFor(response: http.ServerResponse, body: string, secret = SECRET): Record<string, string> {
  const target = response.req.url ?? '/';
  const path = response.req.method === 'GET' ? target : target.split('?', 1)[0]!;
  return signedHeaders(singleKeyring(secret), path, body);
}

/** An answer: signed for the request it answers unless `headers` says otherwise (null: unsigned). */
function answer(
  response: http.ServerResponse,
  body: string,
  headers: Record<string, string> | null = signedFor(response, body),
  status = 200,
) {
  response.writeHead(status, { 'content-type': 'application/json', ...(headers ?? {}) });
  response.end(body);
}

/** The request's signature as the wallet checks it. */
function requestVerified(request: (typeof seen)[number], path = request.url.split('?', 1)[0]!) {
  return verifyMessage(singleKeyring(SECRET), path, request.raw, {
    timestamp: request.headers[TIMESTAMP_HEADER_LOWER],
    signature: request.headers[SIGNATURE_HEADER_LOWER],
    keyId: request.headers[KEY_ID_HEADER_LOWER],
  });
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      seen.push({
        url: request.url ?? '',
        raw,
        headers: request.headers,
        contentType: request.headers['content-type'],
      });
      behaviour(request, raw, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('callWallet', () => {
  it('posts the canonical body, signed, and returns a signed answer of the contract', async () => {
    const body = JSON.stringify({ status: 'OK', balanceCents: 800, transactionId: 'wtx-7', requestId: 'b-1' });
    behaviour = (_req, _raw, res) => answer(res, body);
    const reordered = {
      currency: 'EUR',
      amountCents: 200,
      roundId: 'play-1',
      playerId: 'alice',
      requestId: 'b-1',
    } as const;
    const result = await callWallet(url, SECRET, 'bet', reordered);
    expect(result).toEqual({
      kind: 'answer',
      status: 'OK',
      body: { status: 'OK', balanceCents: 800, transactionId: 'wtx-7' },
    });
    const request = seen.at(-1)!;
    expect(request.url).toBe('/bet');
    expect(request.contentType).toBe('application/json');
    expect(request.raw).toBe(JSON.stringify(bet));
    expect(requestVerified(request)).toEqual({ ok: true });
    expect(request.headers[KEY_ID_HEADER_LOWER]).toBe('default');
  });

  it('returns refusals as answers', async () => {
    behaviour = (_req, _raw, res) => answer(res, '{"status":"INSUFFICIENT_FUNDS","balanceCents":50,"requestId":"b-1"}');
    expect(await callWallet(url, SECRET, 'bet', bet)).toMatchObject({
      kind: 'answer',
      status: 'INSUFFICIENT_FUNDS',
      body: { balanceCents: 50 },
    });
  });

  it('signs the path below WALLET_URL’s own, and checks the answer against it', async () => {
    behaviour = (_req, _raw, res) => answer(res, '{"status":"OK","balanceCents":3,"requestId":"r"}');
    const result = await callWallet(`${url}fdj/wallet/`, SECRET, 'balance', { requestId: 'r', playerId: 'alice' });
    expect(result).toMatchObject({ kind: 'answer', status: 'OK' });
    const request = seen.at(-1)!;
    expect(request.url).toBe('/fdj/wallet/balance');
    expect(requestVerified(request, '/fdj/wallet/balance').ok).toBe(true);
    expect(requestVerified(request, '/balance').ok).toBe(false);
  });

  it('signs with the keyring’s first key and accepts an answer signed with any of its keys', async () => {
    const older = 'the-previous-wallet-secret-0123456789';
    const keyring = keyringOf([
      { id: 'new', secret: SECRET },
      { id: 'old', secret: older },
    ]);
    // The wallet still signs with the old key (its own ring lists it first).
    behaviour = (_req, _raw, res) => {
      const body = '{"status":"OK","balanceCents":1,"requestId":"rot"}';
      answer(res, body, signedHeaders(keyringOf([{ id: 'old', secret: older }]), '/balance', body));
    };
    const result = await callWallet(url, keyring, 'balance', { requestId: 'rot', playerId: 'alice' });
    expect(result).toMatchObject({ kind: 'answer', status: 'OK' });
    const request = seen.at(-1)!;
    expect(request.headers[KEY_ID_HEADER_LOWER]).toBe('new');
    const walletRing = keyringOf([
      { id: 'old', secret: older },
      { id: 'new', secret: SECRET },
    ]);
    expect(
      verifyMessage(walletRing, '/balance', request.raw, {
        timestamp: request.headers[TIMESTAMP_HEADER_LOWER],
        signature: request.headers[SIGNATURE_HEADER_LOWER],
        keyId: request.headers[KEY_ID_HEADER_LOWER],
      }),
    ).toEqual({ ok: true });
    // A client holding only the new key refuses the old key's answer.
    const alone = await callWallet(url, keyringOf([{ id: 'new', secret: SECRET }]), 'balance', {
      requestId: 'rot',
      playerId: 'alice',
    });
    expect(alone).toEqual({ kind: 'unknown', reason: 'the answer is signed with a key this side does not hold' });
  });

  const OK = '{"status":"OK","balanceCents":1,"requestId":"r"}';
  const stale = (res: http.ServerResponse, body: string, secondsAgo: number) => {
    const at = String(Math.floor(Date.now() / 1000) - secondsAgo);
    return {
      ...signedFor(res, body),
      [TIMESTAMP_HEADER]: at,
      [SIGNATURE_HEADER]: signMessage(SECRET, '/balance', at, body),
    };
  };
  const unknowns: [string, Behaviour, RegExp][] = [
    ['HTTP 500 even signed', (_q, _r, res) => answer(res, OK, undefined, 500), /HTTP 500/],
    ['HTTP 503 unsigned', (_q, _r, res) => answer(res, 'busy', null, 503), /HTTP 503/],
    ['a 200 without signature', (_q, _r, res) => answer(res, OK, null), /not signed/],
    [
      'a 200 signed with another secret',
      (_q, _r, res) => answer(res, OK, signedFor(res, OK, `${SECRET}x`)),
      /does not match/,
    ],
    [
      'a 200 signed in uppercase hex',
      (_q, _r, res) => {
        const headers = signedFor(res, OK);
        answer(res, OK, { ...headers, [SIGNATURE_HEADER]: headers[SIGNATURE_HEADER]!.toUpperCase() });
      },
      /does not match/,
    ],
    [
      'a 200 signed for another path (a win’s answer given to a balance)',
      (_q, _r, res) => answer(res, OK, signedHeaders(singleKeyring(SECRET), '/win', OK)),
      /does not match/,
    ],
    ['a 200 signed 301 s ago', (_q, _r, res) => answer(res, OK, stale(res, OK, 301)), /more than 300 s away/],
    [
      'a 200 without a timestamp',
      (_q, _r, res) => {
        const headers = signedFor(res, OK);
        delete headers[TIMESTAMP_HEADER];
        answer(res, OK, headers);
      },
      /no timestamp/,
    ],
    [
      'a 200 that names another call',
      (_q, _r, res) => answer(res, '{"status":"OK","balanceCents":1,"requestId":"another"}'),
      /names another call/,
    ],
    [
      'a 200 that names no call',
      (_q, _r, res) => answer(res, '{"status":"OK","balanceCents":1}'),
      /names another call/,
    ],
    [
      'INVALID_SIGNATURE: the wallet refused our signature',
      (_q, _r, res) => answer(res, '{"status":"INVALID_SIGNATURE"}'),
      /refused our signature/,
    ],
    ['a 200 whose body is not JSON', (_q, _r, res) => answer(res, '{"status":'), /not JSON/],
    [
      'a 200 with a status the call cannot answer',
      (_q, _r, res) => answer(res, '{"status":"BET_SETTLED","requestId":"r"}'),
      /breaks the contract/,
    ],
    [
      'a 200 OK without its balance',
      (_q, _r, res) => answer(res, '{"status":"OK","requestId":"r"}'),
      /breaks the contract/,
    ],
    ['a reset', (_q, _r, res) => res.socket?.destroy(), /connection failed/],
    [
      'an answer cut off before its end',
      (_q, _r, res) => {
        res.writeHead(200, { 'content-length': '200', ...signedFor(res, OK) });
        res.write(OK);
        setTimeout(() => res.socket?.destroy(), 20);
      },
      /cut off|connection failed/,
    ],
    [
      'an answer with bytes after it',
      (_q, _r, res) => {
        const head = Object.entries({ 'content-length': String(OK.length), ...signedFor(res, OK) })
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('');
        res.socket?.write(`HTTP/1.1 200 OK\r\n${head}\r\n${OK}HTTP/1.1 200 OK\r\n`);
      },
      /bytes after the answer/,
    ],
    [
      'an answer past its size cap',
      (_q, _r, res) => {
        const big = JSON.stringify({ status: 'OK', balanceCents: 1, requestId: 'r', pad: 'x'.repeat(70_000) });
        answer(res, big);
      },
      /too large/,
    ],
    ['a timeout', () => {}, /no answer within 300 ms/],
  ];
  for (const [what, act, reason] of unknowns) {
    it(`counts ${what} as unknown`, async () => {
      behaviour = act;
      const result = await callWallet(
        url,
        SECRET,
        'balance',
        { requestId: 'r', playerId: 'alice' },
        // Only the timeout case waits it out; the others must be answered well before it,
        // even on a busy machine.
        { timeoutMs: what === 'a timeout' ? 300 : 5000 },
      );
      expect(result.kind).toBe('unknown');
      expect(result.kind === 'unknown' && result.reason).toMatch(reason);
    });
  }

  it('keeps its connection to the wallet alive from call to call', async () => {
    // A wallet of its own: no connection of the tests above (reset, timed out) in its pool.
    let connections = 0;
    const own = http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () =>
        answer(response, JSON.stringify({ status: 'OK', balanceCents: 1, requestId: JSON.parse(raw).requestId })),
      );
    });
    own.on('connection', () => connections++);
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    try {
      const ownUrl = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
      for (let i = 0; i < 5; i++) {
        const result = await callWallet(ownUrl, SECRET, 'balance', { requestId: `k-${i}`, playerId: 'alice' });
        expect(result.kind).toBe('answer');
        // A turn of the event loop between calls, as the game spends between a bet and its win.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
    expect(connections).toBeLessThanOrEqual(1);
  });

  it('counts a refused connection as unknown', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await callWallet(`http://127.0.0.1:${port}`, SECRET, 'balance', { requestId: 'r', playerId: 'a' });
    expect(result).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/connection failed/) });
  });

  it('throws before sending a body that breaks the contract', async () => {
    const before = seen.length;
    await expect(callWallet(url, SECRET, 'bet', { ...bet, amountCents: 0 })).rejects.toThrow(WalletRequestError);
    await expect(callWallet(url, SECRET, 'bet', { ...bet, currency: 'USD' as 'EUR' })).rejects.toThrow(/currency/);
    expect(seen.length).toBe(before);
  });
});

describe('getStatement', () => {
  const entry = (seq: number) => ({
    seq,
    transactionId: `wtx-${seq}`,
    kind: 'bet',
    requestId: `b-${seq}`,
    playerId: 'alice',
    roundId: `r-${seq}`,
    betRequestId: null,
    amountCents: 100,
    movedCents: -100,
    balanceAfterCents: 1000 - 100 * seq,
    createdAt: '2026-11-30T10:00:00.000Z',
  });

  it('signs the request target and checks the signed page', async () => {
    behaviour = (req, _raw, res) => {
      const after = Number(new URL(req.url ?? '', 'http://x').searchParams.get('after') ?? 0);
      const page = after === 0 ? [entry(1), entry(2)] : [entry(3)];
      answer(
        res,
        JSON.stringify({ status: 'OK', from: 'f', to: 't', transactions: page, next: after === 0 ? 2 : null }),
      );
    };
    const query = { from: new Date('2026-11-30T00:00:00Z'), to: '2026-12-01T00:00:00Z' };
    const first = await getStatement(url, SECRET, query);
    expect(first.kind === 'answer' && first.body.next).toBe(2);
    const request = seen.at(-1)!;
    expect(request.url).toBe('/statement?from=2026-11-30T00%3A00%3A00.000Z&to=2026-12-01T00%3A00%3A00Z');
    expect(request.url).toBe(statementTarget(query));
    // A GET signs its request target, query included, and no body.
    expect(requestVerified(request, request.url)).toEqual({ ok: true });
    expect(requestVerified(request, '/statement').ok).toBe(false);
    const full = await getFullStatement(url, SECRET, query);
    expect(full.kind === 'answer' && full.transactions.map((t) => t.seq)).toEqual([1, 2, 3]);
  });

  it('counts an unsigned or broken statement as unknown', async () => {
    behaviour = (_req, _raw, res) =>
      answer(res, '{"status":"OK","from":"f","to":"t","transactions":[],"next":null}', null);
    expect((await getStatement(url, SECRET, { from: 'a', to: 'b' })).kind).toBe('unknown');
    behaviour = (_req, _raw, res) => answer(res, '{"status":"OK","from":"f","to":"t","transactions":[{}],"next":null}');
    expect((await getFullStatement(url, SECRET, { from: 'a', to: 'b' })).kind).toBe('unknown');
  });
});

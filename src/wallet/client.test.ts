import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWallet, getFullStatement, getStatement, statementTarget, WalletRequestError } from './client.ts';
import { SIGNATURE_HEADER_LOWER, signBody, verifySignature } from './signature.ts';

const SECRET = 'a-wallet-secret-of-at-least-32-chars!';
const bet = { requestId: 'b-1', playerId: 'alice', roundId: 'play-1', amountCents: 200, currency: 'EUR' } as const;

/** What the fake wallet does with the next request. */
type Behaviour = (request: http.IncomingMessage, raw: string, response: http.ServerResponse) => void;
let behaviour: Behaviour = () => {};
const seen: { url: string; raw: string; signature: string | undefined; contentType: string | undefined }[] = [];
let server: http.Server;
let url = '';

function answer(
  response: http.ServerResponse,
  body: string,
  signature: string | null = signBody(SECRET, body),
  status = 200,
) {
  response.writeHead(status, {
    'content-type': 'application/json',
    ...(signature === null ? {} : { [SIGNATURE_HEADER_LOWER]: signature }),
  });
  response.end(body);
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const signature = request.headers[SIGNATURE_HEADER_LOWER];
      seen.push({
        url: request.url ?? '',
        raw,
        signature: typeof signature === 'string' ? signature : undefined,
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
    const body = JSON.stringify({ status: 'OK', balanceCents: 800, transactionId: 'wtx-7' });
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
    expect(verifySignature(SECRET, request.raw, request.signature)).toBe(true);
  });

  it('returns refusals as answers', async () => {
    behaviour = (_req, _raw, res) => answer(res, '{"status":"INSUFFICIENT_FUNDS","balanceCents":50}');
    expect(await callWallet(url, SECRET, 'bet', bet)).toMatchObject({
      kind: 'answer',
      status: 'INSUFFICIENT_FUNDS',
      body: { balanceCents: 50 },
    });
    behaviour = (_req, _raw, res) => answer(res, '{"status":"INVALID_SIGNATURE"}');
    expect(await callWallet(url, SECRET, 'balance', { requestId: 'r', playerId: 'alice' })).toMatchObject({
      kind: 'answer',
      status: 'INVALID_SIGNATURE',
    });
  });

  const unknowns: [string, Behaviour, RegExp][] = [
    [
      'HTTP 500 even signed',
      (_q, _r, res) => answer(res, '{"status":"OK","balanceCents":1}', undefined, 500),
      /HTTP 500/,
    ],
    ['HTTP 503 unsigned', (_q, _r, res) => answer(res, 'busy', null, 503), /HTTP 503/],
    ['a 200 without signature', (_q, _r, res) => answer(res, '{"status":"OK","balanceCents":1}', null), /not signed/],
    [
      'a 200 signed with another secret',
      (_q, _r, res) =>
        answer(res, '{"status":"OK","balanceCents":1}', signBody(`${SECRET}x`, '{"status":"OK","balanceCents":1}')),
      /does not match/,
    ],
    [
      'a 200 signed in uppercase hex',
      (_q, _r, res) =>
        answer(
          res,
          '{"status":"OK","balanceCents":1}',
          signBody(SECRET, '{"status":"OK","balanceCents":1}').toUpperCase(),
        ),
      /does not match/,
    ],
    ['a 200 whose body is not JSON', (_q, _r, res) => answer(res, '{"status":'), /not JSON/],
    [
      'a 200 with a status the call cannot answer',
      (_q, _r, res) => answer(res, '{"status":"BET_SETTLED"}'),
      /breaks the contract/,
    ],
    ['a 200 OK without its balance', (_q, _r, res) => answer(res, '{"status":"OK"}'), /breaks the contract/],
    ['a reset', (_q, _r, res) => res.socket?.destroy(), /connection failed/],
    [
      'an answer cut off before its end',
      (_q, _r, res) => {
        const body = '{"status":"OK","balanceCents":1}';
        res.writeHead(200, { 'content-length': '200', [SIGNATURE_HEADER_LOWER]: signBody(SECRET, body) });
        res.write(body);
        setTimeout(() => res.socket?.destroy(), 20);
      },
      /cut off|connection failed/,
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
    behaviour = (_req, _raw, res) => answer(res, '{"status":"OK","balanceCents":1}');
    let connections = 0;
    const count = () => connections++;
    server.on('connection', count);
    try {
      for (let i = 0; i < 5; i++) {
        const result = await callWallet(url, SECRET, 'balance', { requestId: `k-${i}`, playerId: 'alice' });
        expect(result.kind).toBe('answer');
      }
    } finally {
      server.off('connection', count);
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
    expect(verifySignature(SECRET, request.url, request.signature)).toBe(true);
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

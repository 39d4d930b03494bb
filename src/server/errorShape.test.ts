import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../contract/errorCodes.ts';
import { databaseDump, demoSession, startTestServer, type TestServer } from './testing/harness.ts';
import { rawRequest } from './testing/rawHttp.ts';

/**
 * Every answer of the API, those made outside the routes included (Node's parser, Fastify's
 * router), is `{"error":{"code","message"}}` with a stable code, and changes nothing. Raw
 * requests over a socket: most of these no HTTP client would send.
 */

const PLAY_ID = '0190f0aa-7d1c-7b2e-8f00-0123456789ab';
const LONG = 'a'.repeat(3000);

interface Case {
  name: string;
  /** The request line and headers (`TOKEN` is replaced by a valid session token); `\r\n\r\n` added. */
  head: string;
  body?: string;
  status: number;
  code: (typeof ERROR_CODES)[number];
}

const CASES: Case[] = [
  { name: 'a method no HTTP parser knows', head: 'FROB /api/health HTTP/1.1', status: 400, code: 'INVALID_INPUT' },
  { name: 'a method the API has no route for', head: 'PROPFIND /api/health HTTP/1.1', status: 404, code: 'NOT_FOUND' },
  { name: 'DELETE on a GET route', head: 'DELETE /api/account HTTP/1.1', status: 404, code: 'NOT_FOUND' },
  { name: 'not HTTP at all', head: 'HELLO', status: 400, code: 'INVALID_INPUT' },
  { name: 'a malformed URL escape', head: 'GET /api/plays/%zz HTTP/1.1', status: 400, code: 'INVALID_INPUT' },
  {
    name: 'a malformed escape on a POST route',
    head: `POST /api/plays/%E0%A4%A/finish HTTP/1.1`,
    status: 400,
    code: 'INVALID_INPUT',
  },
  {
    name: 'a long play id (the URL is not echoed)',
    head: `GET /api/plays/${LONG} HTTP/1.1`,
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'a long id on a POST route (the URL is not echoed)',
    head: `POST /api/plays/${LONG}/finish HTTP/1.1`,
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'a URL over the header size (431)',
    head: `GET /api/plays/${'b'.repeat(20_000)} HTTP/1.1`,
    status: 431,
    code: 'INVALID_INPUT',
  },
  {
    name: 'headers over 16 KiB (431)',
    head: `GET /api/health HTTP/1.1\r\nX-Pad: ${'c'.repeat(20_000)}`,
    status: 431,
    code: 'INVALID_INPUT',
  },
  { name: '`..` under /api/', head: 'GET /api/plays/../../etc/passwd HTTP/1.1', status: 404, code: 'NOT_FOUND' },
  { name: '`..` back out of /api/', head: 'GET /api/../index.html HTTP/1.1', status: 404, code: 'NOT_FOUND' },
  {
    name: 'an encoded `..` under /api/',
    head: 'GET /api/%2e%2e/%2e%2e/etc/passwd HTTP/1.1',
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'finish with a null body',
    head: `POST /api/plays/${PLAY_ID}/finish HTTP/1.1\r\nAuthorization: Bearer TOKEN\r\nContent-Type: application/json`,
    body: 'null',
    status: 400,
    code: 'INVALID_INPUT',
  },
  {
    name: 'a play with a null body',
    head: `POST /api/plays HTTP/1.1\r\nAuthorization: Bearer TOKEN\r\nContent-Type: application/json`,
    body: 'null',
    status: 400,
    code: 'INVALID_INPUT',
  },
  {
    name: 'a body that is not JSON',
    head: `POST /api/plays HTTP/1.1\r\nAuthorization: Bearer TOKEN\r\nContent-Type: text/plain`,
    body: 'stake=100',
    status: 415,
    code: 'INVALID_INPUT',
  },
  {
    name: 'a body that announces more than 4 KiB',
    head: `POST /api/plays HTTP/1.1\r\nAuthorization: Bearer TOKEN\r\nContent-Type: application/json\r\nContent-Length: 999999`,
    status: 413,
    code: 'INVALID_INPUT',
  },
  {
    name: 'a bad Content-Length',
    head: `POST /api/plays HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: x1`,
    status: 400,
    code: 'INVALID_INPUT',
  },
];

describe('every answer of the API has the error shape', () => {
  let server: TestServer;
  let token = '';
  beforeAll(async () => {
    server = await startTestServer();
    token = (await demoSession(server.url)).token;
  });
  afterAll(() => server.close());

  it.each(CASES)('$name → $status $code', async ({ head, body, status, code }) => {
    const before = databaseDump(server.sqlite);
    let request = `${head.replace('TOKEN', token)}\r\nHost: t\r\nConnection: close`;
    if (body !== undefined) request += `\r\nContent-Length: ${Buffer.byteLength(body)}`;
    request += `\r\n\r\n${body ?? ''}`;
    const answer = await rawRequest(server.url, request);
    expect(answer, 'an answer before the connection closed').not.toBeNull();
    expect(answer!.status).toBe(status);
    expect(answer!.headers['content-type']).toMatch(/^application\/json/);
    const parsed: unknown = JSON.parse(answer!.body);
    expect(parsed).toEqual({ error: { code, message: expect.any(String) } });
    expect(Object.keys((parsed as { error: object }).error)).toEqual(['code', 'message']);
    // Whatever the request, the answer echoes no long part of it.
    expect(answer!.body.length).toBeLessThan(300);
    expect(databaseDump(server.sqlite)).toBe(before);
  });
});

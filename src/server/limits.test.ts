import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/harness.ts';
import { RawConnection, sleep } from './testing/rawHttp.ts';

/**
 * Real servers on a random port, real sockets: a request that arrives too slowly is cut
 * (headers or body), and connections are capped per address and in all.
 */

const HEALTH = 'GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n';

describe('the time to receive a whole request', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ REQUEST_TIMEOUT_MS: '500' });
  });
  afterAll(() => server.close());

  /** Sends `text` a byte every `everyMs` until the server closes; how many bytes it took. */
  async function trickle(connection: RawConnection, text: string, everyMs: number): Promise<number> {
    for (let i = 0; i < text.length; i++) {
      if (!connection.isOpen) return i;
      await connection.write(text[i]!).catch(() => {});
      await sleep(everyMs);
    }
    return text.length;
  }

  it('cuts a body sent a byte at a time with 408 REQUEST_TIMEOUT, before it is complete', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(200) });
    const connection = new RawConnection(server.url);
    await connection.ready;
    await connection.write(
      `POST /api/session HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const sent = await trickle(connection, body, 50);
    await connection.closed;
    expect(sent).toBeLessThan(body.length);
    const answer = await connection.response();
    expect(answer?.status).toBe(408);
    expect(JSON.parse(answer!.body)).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: expect.any(String) } });
  });

  it('cuts headers sent a byte at a time, and a connection that sends nothing', async () => {
    const slow = new RawConnection(server.url);
    const silent = new RawConnection(server.url);
    await Promise.all([slow.ready, silent.ready]);
    const headers = `GET /api/health HTTP/1.1\r\nHost: t\r\nX-Pad: ${'y'.repeat(200)}\r\n\r\n`;
    const sent = await trickle(slow, headers, 50);
    await Promise.all([slow.closed, silent.closed]);
    expect(sent).toBeLessThan(headers.length);
    expect((await slow.response())?.status).toBe(408);
  });

  it('answers a request sent at once, and again on the same connection', async () => {
    const connection = new RawConnection(server.url);
    await connection.ready;
    for (let i = 0; i < 2; i++) {
      await connection.write(HEALTH);
      const answer = await connection.response();
      expect(answer?.status).toBe(200);
      expect(JSON.parse(answer!.body)).toEqual({ ok: true });
    }
    connection.destroy();
  });
});

describe('connection caps', () => {
  let server: TestServer;
  const open: RawConnection[] = [];
  beforeAll(async () => {
    server = await startTestServer({ MAX_CONNECTIONS_PER_ADDRESS: '3', MAX_CONNECTIONS: '5' });
  });
  afterAll(async () => {
    for (const connection of open) connection.destroy();
    await server.close();
  });

  /** A connection from `from` (a loopback address), and whether it is served. */
  async function connect(from: string): Promise<{ connection: RawConnection; served: boolean }> {
    const connection = new RawConnection(server.url, from);
    open.push(connection);
    await connection.ready;
    await connection.write(HEALTH).catch(() => {});
    const answer = await connection.response();
    if (answer) expect(answer.status).toBe(200);
    else expect(connection.received).toBe('');
    return { connection, served: answer !== null };
  }

  it('refuses a connection over the cap of its address, and over the cap in all; a freed slot serves again', async () => {
    const first = await Promise.all([connect('127.0.0.1'), connect('127.0.0.1'), connect('127.0.0.1')]);
    expect(first.map((c) => c.served)).toEqual([true, true, true]);
    // A fourth from the same address is closed unanswered; other addresses still get in.
    expect((await connect('127.0.0.1')).served).toBe(false);
    expect((await connect('127.0.0.2')).served).toBe(true);
    expect((await connect('127.0.0.2')).served).toBe(true);
    // Five open in all: any address is refused now.
    expect((await connect('127.0.0.3')).served).toBe(false);
    // The connections still open are kept alive and still served.
    await first[0]!.connection.write(HEALTH);
    expect((await first[0]!.connection.response())?.status).toBe(200);

    first[1]!.connection.destroy();
    await first[1]!.connection.closed;
    // The server sees the close a moment later: retry until the slot is free (the test's timeout bounds it).
    let again = await connect('127.0.0.3');
    while (!again.served) {
      await sleep(20);
      again = await connect('127.0.0.3');
    }
    expect(again.served).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, PlayResponse, SessionResponse } from '../../contract/api.ts';
import { callWallet, getFullStatement } from '../../walletApi/client.ts';
import { call, startTestServer, type TestServer } from '../testing/harness.ts';
import { spawnWallet, TEST_WALLET_SECRET, type SpawnedWallet } from '../testing/operatorWallet.ts';
import { signLaunchToken } from '../tokens.ts';

/**
 * Contract version 2 binds every message to its call: a man in the middle that replays a
 * recorded answer, or delivers a signed request at another path, changes nothing. The proxy
 * here sits between the game server (or its wallet client) and the reference wallet, and
 * does what such a man in the middle would.
 */
const PORTAL_SECRET = 'portal-secret-for-wallet-binding-0123456';

interface Recorded {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A proxy to `target` that records every answer and may replay one, or deliver a call at another path. */
async function manInTheMiddle(target: string) {
  const wallet = new URL(target);
  const state = {
    /** The last answer of each path, as the wallet sent it. */
    recorded: new Map<string, Recorded>(),
    /** Answers these paths with this recording instead of forwarding them. */
    replay: new Map<string, Recorded>(),
    /** Forwards a path's requests to another path. */
    redirect: new Map<string, string>(),
    url: '',
    close: async () => {},
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const replayed = state.replay.get(path);
      if (replayed) {
        response.writeHead(replayed.status, replayed.headers);
        response.end(replayed.body);
        return;
      }
      const forwarded = http.request(
        {
          host: wallet.hostname,
          port: wallet.port,
          method: request.method,
          path: state.redirect.get(path) ?? path,
          headers: { ...request.headers, host: wallet.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const recorded = { status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(body) };
            state.recorded.set(path, recorded);
            response.writeHead(recorded.status, recorded.headers);
            response.end(recorded.body);
          });
        },
      );
      forwarded.on('error', () => response.destroy());
      forwarded.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return state;
}

describe('wallet answers bound to their calls (contract version 2)', () => {
  let wallet: SpawnedWallet;
  let proxy: Awaited<ReturnType<typeof manInTheMiddle>>;
  let server: TestServer;

  beforeAll(async () => {
    wallet = await spawnWallet();
    proxy = await manInTheMiddle(wallet.url);
    server = await startTestServer({
      PORTAL_SECRET,
      ...wallet.gameEnv,
      WALLET_URL: proxy.url,
      WALLET_TIMEOUT_MS: '300',
      WALLET_RETRY_BASE_MS: '50',
      WALLET_RETRY_CAP_MS: '200',
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await wallet?.destroy();
  });

  async function balanceAtWallet(operatorId: string): Promise<number> {
    const answer = await wallet.admin.account(operatorId);
    if (answer.status !== 'OK' || !('account' in answer)) throw new Error(JSON.stringify(answer));
    return answer.account.balanceCents;
  }

  async function drained(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if ((await server.store.unsettledOutbox()).length === 0) return;
      server.context.wallet!.drainer.kick();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the outbox did not drain: ${JSON.stringify(await server.store.unsettledOutbox())}`);
  }

  it('a recorded OK replayed as the answer to another bet is refused: that play is not sold, its bet rolled back', async () => {
    const operatorId = `mallory-${randomUUID().slice(0, 8)}`;
    expect(await wallet.admin.createAccount(operatorId, { balanceCents: 5000 })).toMatchObject({ status: 'OK' });
    const launchToken = signLaunchToken(
      { playerId: operatorId, exp: Math.floor(Date.now() / 1000) + 300 },
      PORTAL_SECRET,
    );
    const session = await call<SessionResponse>(server.url, 'POST', '/api/session', { body: { launchToken } });
    expect(session.status).toBe(200);
    const play = (playId: string) =>
      call<PlayResponse & ApiError>(server.url, 'POST', '/api/plays', {
        token: session.body.token,
        body: { playId, stakeCents: 100 },
      });

    const first = await play(randomUUID());
    expect(first.status).toBe(200);
    const sold = (await server.store.listBlocks()).reduce((n, b) => n + b.nextPosition, 0);
    // From now on every bet is answered with the first bet's OK, signed by the wallet.
    proxy.replay.set('/bet', proxy.recorded.get('/bet')!);
    const playId = randomUUID();
    const replayed = await play(playId);
    expect([replayed.status, replayed.body.error?.code]).toEqual([503, 'WALLET_UNAVAILABLE']);
    expect(await server.store.walletBet(playId)).toMatchObject({ state: 'cancelled' });
    expect((await server.store.listBlocks()).reduce((n, b) => n + b.nextPosition, 0)).toBe(sold);
    proxy.replay.clear();
    await drained();
    // The wallet's books: the first round, and the rollback of a bet it never saw (nothing moved).
    expect(await balanceAtWallet(operatorId)).toBe(5000 - 100 + first.body.play.winCents);
    const statement = await getFullStatement(wallet.url, TEST_WALLET_SECRET, {
      from: new Date(Date.now() - 600_000),
      to: new Date(Date.now() + 60_000),
    });
    if (statement.kind !== 'answer') throw new Error(statement.reason);
    const lines = statement.transactions.filter((t) => t.playerId === operatorId && t.kind !== 'deposit');
    expect(lines.map((t) => [t.kind, t.roundId === playId, t.movedCents])).toEqual([
      ['bet', false, -100],
      ['win', false, first.body.play.winCents],
      ['rollback', true, 0],
    ]);
  });

  it('a rollback, signed for /rollback, delivered at /win is refused: nothing paid, and the caller hears unknown', async () => {
    const operatorId = `trent-${randomUUID().slice(0, 8)}`;
    expect(await wallet.admin.createAccount(operatorId, { balanceCents: 1000 })).toMatchObject({ status: 'OK' });
    const bet = {
      requestId: randomUUID(),
      playerId: operatorId,
      roundId: randomUUID(),
      amountCents: 300,
      currency: 'EUR',
    } as const;
    expect(await callWallet(wallet.url, TEST_WALLET_SECRET, 'bet', bet)).toMatchObject({ status: 'OK' });
    proxy.redirect.set('/rollback', '/win');
    try {
      const rollback = {
        requestId: randomUUID(),
        playerId: operatorId,
        roundId: bet.roundId,
        betRequestId: bet.requestId,
        amountCents: 300,
        currency: 'EUR',
      } as const;
      const result = await callWallet(proxy.url, TEST_WALLET_SECRET, 'rollback', rollback);
      expect(result.kind).toBe('unknown');
      // Neither paid as a win nor reversed: the bet stands as it was.
      expect(await balanceAtWallet(operatorId)).toBe(700);
    } finally {
      proxy.redirect.clear();
    }
  });
});

describe('wallet secrets rotated (WALLET_SECRETS)', () => {
  const OLD = 'the-old-secret-shared-with-the-wallet-0001';
  const NEW = 'the-new-secret-shared-with-the-wallet-0002';
  let wallet: SpawnedWallet;

  beforeAll(async () => {
    // The wallet has moved on: it signs with the new key and still takes the old one.
    wallet = await spawnWallet({ WALLET_SECRET: '', WALLET_SECRETS: `new:${NEW},old:${OLD}` });
  }, 60_000);
  afterAll(() => wallet?.destroy());

  it('the old key verifies while the new one signs; a key outside the ring does not', async () => {
    const balance = (requestId: string) => ({ requestId, playerId: 'nobody-here' });
    // A game that still signs with the old key and holds the new one: answered.
    const both = {
      signer: { id: 'old', secret: OLD },
      keys: [
        { id: 'old', secret: OLD },
        { id: 'new', secret: NEW },
      ],
    };
    expect(await callWallet(wallet.url, both, 'balance', balance(randomUUID()))).toMatchObject({
      kind: 'answer',
      status: 'UNKNOWN_PLAYER',
    });
    // A game that holds the old key alone: the wallet takes its call, but its answer is signed with the new key.
    const oldOnly = { signer: { id: 'old', secret: OLD }, keys: [{ id: 'old', secret: OLD }] };
    expect(await callWallet(wallet.url, oldOnly, 'balance', balance(randomUUID()))).toEqual({
      kind: 'unknown',
      reason: 'the answer is signed with a key this side does not hold',
    });
    // The new key alone, named `new` as the wallet names it: answered.
    const newOnly = { signer: { id: 'new', secret: NEW }, keys: [{ id: 'new', secret: NEW }] };
    expect(await callWallet(wallet.url, newOnly, 'balance', balance(randomUUID()))).toMatchObject({ kind: 'answer' });
    // A retired key: refused (INVALID_SIGNATURE), which the game counts as unknown.
    expect(await callWallet(wallet.url, TEST_WALLET_SECRET, 'balance', balance(randomUUID()))).toMatchObject({
      kind: 'unknown',
    });
  });
});

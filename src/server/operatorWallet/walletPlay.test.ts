import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UUID_V7 } from '../../common/uuidV7.ts';
import type { ApiError, PlayResponse, SessionResponse, AccountResponse } from '../../contract/api.ts';
import { getFullStatement } from '../../walletApi/client.ts';
import { auditLedger } from '../ops/ledgerAudit.ts';
import { build, call, type Target, type TestApp } from '../testing/harness.ts';
import { spawnWallet, TEST_WALLET_SECRET, type SpawnedWallet } from '../testing/operatorWallet.ts';
import { signLaunchToken } from '../tokens.ts';

/**
 * The game server with portal players' money at the reference operator wallet, run as its
 * own process: real HTTP both ways, real signatures, the wallet's fault mode for what a
 * network does.
 */
const PORTAL_SECRET = 'portal-secret-for-wallet-tests-0123456789';

let wallet: SpawnedWallet;
let server: TestApp;
let api: Target;

beforeAll(async () => {
  wallet = await spawnWallet();
  server = await build({
    PORTAL_SECRET,
    ...wallet.gameEnv,
    WALLET_TIMEOUT_MS: '300',
    WALLET_RETRY_BASE_MS: '50',
    WALLET_RETRY_CAP_MS: '200',
  });
  api = server.app;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await wallet?.destroy();
});

async function portalSession(
  operatorId: string,
  balanceCents: number,
  options: { dailyStakeLimitCents?: number } = {},
) {
  expect(await wallet.admin.createAccount(operatorId, { balanceCents, ...options })).toMatchObject({ status: 'OK' });
  const launchToken = signLaunchToken(
    { playerId: operatorId, exp: Math.floor(Date.now() / 1000) + 300 },
    PORTAL_SECRET,
  );
  const reply = await call<SessionResponse>(api, 'POST', '/api/session', { body: { launchToken } });
  expect(reply.status).toBe(200);
  return reply.body;
}

const play = (token: string, stakeCents: number, playId: string = randomUUID()) =>
  call<PlayResponse & ApiError>(api, 'POST', '/api/plays', { token, body: { playId, stakeCents } });

async function walletBalance(operatorId: string): Promise<number> {
  const answer = await wallet.admin.account(operatorId);
  if (answer.status !== 'OK' || !('account' in answer)) throw new Error(JSON.stringify(answer));
  return answer.account.balanceCents;
}

async function statementOf(operatorId: string) {
  const statement = await getFullStatement(wallet.url, TEST_WALLET_SECRET, {
    from: new Date(Date.now() - 3_600_000),
    to: new Date(Date.now() + 60_000),
  });
  if (statement.kind !== 'answer') throw new Error(statement.reason);
  return statement.transactions.filter((t) => t.playerId === operatorId && t.kind !== 'deposit');
}

async function drained(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await server.store.unsettledOutbox()).length === 0 && (await server.store.unresolvedWalletBets()).length === 0)
      return;
    server.context.wallet!.drainer.kick();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the outbox did not drain: ${JSON.stringify(await server.store.unsettledOutbox())}`);
}

async function expectAuditOk() {
  const report = await server.store.readSnapshot(() => auditLedger(server.store, server.library));
  expect(report.problems).toEqual([]);
}

describe('portal plays paid at the operator’s wallet', () => {
  it('a round: the session shows the wallet’s balance, the bet and the win go to the wallet once', async () => {
    const operatorId = `alice-${randomUUID().slice(0, 8)}`;
    const session = await portalSession(operatorId, 5000);
    expect(session.balanceCents).toBe(5000);
    const playId = randomUUID();
    const first = await play(session.token, 200, playId);
    expect(first.status).toBe(200);
    const { play: sold, balanceCents } = first.body;
    expect(balanceCents).toBe(5000 - 200 + sold.winCents);
    expect(await walletBalance(operatorId)).toBe(balanceCents);
    // A retry of the same « Jouer » replays it: no second bet.
    const again = await play(session.token, 200, playId);
    expect(again.status).toBe(200);
    expect(again.body.play).toEqual(sold);
    const account = await call<AccountResponse>(api, 'GET', '/api/account', { token: session.token });
    expect(account.body.balanceCents).toBe(balanceCents);

    await drained();
    const lines = await statementOf(operatorId);
    expect(lines.map((t) => [t.kind, t.roundId, t.amountCents])).toEqual([
      ['bet', playId, 200],
      ['win', playId, sold.winCents],
    ]);
    const [bet] = await server.store
      .walletCalls(new Date(Date.now() - 60_000), new Date(Date.now() + 1000))
      .then((c) => c.bets.filter((b) => b.playId === playId));
    expect(bet).toMatchObject({ state: 'sold', requestId: lines[0]!.requestId });
    // Time-ordered ids (UUIDv7), so that both sides' indexes on them grow at their end.
    for (const t of lines) expect(t.requestId).toMatch(UUID_V7);
    await expectAuditOk();
  });

  it.each([
    ['insufficient funds', { balanceCents: 150, dailyStakeLimitCents: undefined }, 300, 402, 'INSUFFICIENT_BALANCE'],
    ['a play limit', { balanceCents: 5000, dailyStakeLimitCents: 100 }, 200, 403, 'LIMIT_REACHED'],
  ] as const)(
    'refuses on %s: the same error again for the same playId, nothing sold',
    async (_l, account, stake, status, code) => {
      const operatorId = `bob-${randomUUID().slice(0, 8)}`;
      const session = await portalSession(operatorId, account.balanceCents, account);
      const before = JSON.stringify(await server.store.listBlocks());
      const playId = randomUUID();
      const refused = await play(session.token, stake, playId);
      expect(refused.status).toBe(status);
      expect(refused.body.error.code).toBe(code);
      const again = await play(session.token, stake, playId);
      expect([again.status, again.body.error.code]).toEqual([status, code]);
      expect(JSON.stringify(await server.store.listBlocks())).toBe(before);
      expect(await walletBalance(operatorId)).toBe(account.balanceCents);
      expect(await statementOf(operatorId)).toEqual([]);
      await expectAuditOk();
    },
  );

  it('a blocked account: no session; blocked during a session: no sale', async () => {
    const operatorId = `carol-${randomUUID().slice(0, 8)}`;
    const session = await portalSession(operatorId, 5000);
    await wallet.admin.block(operatorId, true);
    const refused = await play(session.token, 100);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'PLAYER_BLOCKED']);
    const launchToken = signLaunchToken(
      { playerId: operatorId, exp: Math.floor(Date.now() / 1000) + 300 },
      PORTAL_SECRET,
    );
    const denied = await call<ApiError>(api, 'POST', '/api/session', { body: { launchToken } });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'PLAYER_BLOCKED']);
    const stranger = signLaunchToken(
      { playerId: 'nobody-at-the-wallet', exp: Math.floor(Date.now() / 1000) + 300 },
      PORTAL_SECRET,
    );
    const unknown = await call<ApiError>(api, 'POST', '/api/session', { body: { launchToken: stranger } });
    expect([unknown.status, unknown.body.error.code]).toEqual([401, 'NO_SESSION']);
  });

  it.each([
    ['5xx before the bet took effect', { WALLET_FAULT_ERROR_RATE: 1 }, 0],
    ['answers lost after the bet took effect', { WALLET_FAULT_LOST_ANSWER_RATE: 1 }, 100],
  ])(
    'no answer (%s): « service indisponible », nothing sold, the bet rolled back once the wallet answers',
    async (_l, faults, movedBack) => {
      const operatorId = `dan-${randomUUID().slice(0, 8)}`;
      const session = await portalSession(operatorId, 5000);
      const sold = (await server.store.listBlocks()).reduce((n, b) => n + b.nextPosition, 0);
      await wallet.admin.setFaults({ WALLET_FAULT_CALLS: 'bet,rollback', ...faults });
      const playId = randomUUID();
      const refused = await play(session.token, 100, playId);
      expect([refused.status, refused.body.error.code]).toEqual([503, 'WALLET_UNAVAILABLE']);
      expect(await server.store.walletBet(playId)).toMatchObject({ state: 'cancelled' });
      await wallet.admin.setFaults({});
      await drained();
      // The same playId stays refused; nothing was sold, and the player's money is whole.
      const again = await play(session.token, 100, playId);
      expect([again.status, again.body.error.code]).toEqual([503, 'WALLET_UNAVAILABLE']);
      expect((await server.store.listBlocks()).reduce((n, b) => n + b.nextPosition, 0)).toBe(sold);
      expect(await walletBalance(operatorId)).toBe(5000);
      const lines = await statementOf(operatorId);
      expect(lines.filter((t) => t.kind === 'rollback').map((t) => [t.roundId, t.movedCents])).toEqual([
        [playId, movedBack],
      ]);
      await expectAuditOk();
    },
  );

  it('a win left unanswered is sent again by the outbox until the wallet takes it', async () => {
    const operatorId = `erin-${randomUUID().slice(0, 8)}`;
    const session = await portalSession(operatorId, 5000);
    await wallet.admin.setFaults({ WALLET_FAULT_CALLS: 'win', WALLET_FAULT_ERROR_RATE: 1 });
    const reply = await play(session.token, 100);
    expect(reply.status).toBe(200);
    // The win is owed, not paid: the balance shown is the bet's answer.
    expect(reply.body.balanceCents).toBe(4900);
    const [owed] = await server.store.unsettledOutbox();
    expect(owed).toMatchObject({ kind: 'win', playId: reply.body.play.playId, amountCents: reply.body.play.winCents });
    await wallet.admin.setFaults({});
    await drained();
    expect(await walletBalance(operatorId)).toBe(4900 + reply.body.play.winCents);
    const wins = (await statementOf(operatorId)).filter((t) => t.kind === 'win');
    expect(wins.map((t) => t.requestId)).toEqual([owed!.requestId]);
    await expectAuditOk();
  });
});

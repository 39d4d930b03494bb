import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Play, PlayResponse, SessionResponse } from '../../contract/api.ts';
import type { StakeCents } from '../../rules/index.ts';
import { getFullStatement } from '../../walletApi/client.ts';
import type { StatementEntry } from '../../walletApi/contract.ts';
import { loadConfig } from '../config.ts';
import { auditLedger } from '../ops/ledgerAudit.ts';
import { PostgresStore } from '../store/postgres/postgresStore.ts';
import { SQLITE_FILE_NAME, SqliteStore } from '../store/sqlite/sqliteStore.ts';
import type { Store } from '../store/types.ts';
import { testLibrary } from '../testing/blockCache.ts';
import { spawnServer, type ChildServer } from '../testing/child.ts';
import { addTestBlocks, call, tempDataDir } from '../testing/harness.ts';
import { spawnWallet, TEST_WALLET_SECRET, type SpawnedWallet } from '../testing/operatorWallet.ts';
import { createTestDatabase, postgresReachable } from '../testing/postgres.ts';
import { signLaunchToken } from '../tokens.ts';
import { reconcileCommand } from './walletCommands.ts';

/**
 * Chaos: players playing at once through the game server against the reference wallet in
 * fault mode (latency past the timeout, 5xx before the effect, answers lost after it,
 * duplicated deliveries, refusals), the game server SIGKILLed and restarted under load
 * (on PostgreSQL: two instances, one killed at a time). Once the faults stop and the
 * outbox drains, the two books must agree exactly.
 */

const PORTAL_SECRET = 'portal-secret-for-chaos-tests-0123456789';
const PLAYERS = 8;
const START_CENTS = 20_00;
const DEPOSIT_CENTS = 20_00;
const KILLS = 3;
const ACKS_PER_ROUND = 20;
const STAKES: readonly StakeCents[] = [100, 200, 300, 500];
const FAULTS = {
  WALLET_FAULT_SEED: '20261130',
  WALLET_FAULT_LATENCY_RATE: '0.1',
  WALLET_FAULT_LATENCY_MS: '20-900',
  WALLET_FAULT_ERROR_RATE: '0.08',
  WALLET_FAULT_LOST_ANSWER_RATE: '0.08',
  WALLET_FAULT_DUPLICATE_RATE: '0.05',
  WALLET_FAULT_REFUSE_RATE: '0.05',
};

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

interface Setup {
  env: Record<string, string>;
  instances: number;
  open(): Promise<Store>;
}

async function sqliteSetup(): Promise<Setup> {
  const dataDir = tempDataDir();
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const library = await testLibrary();
  const prepared = SqliteStore.open(dataDir, library);
  await addTestBlocks(prepared, ['real']);
  await prepared.close();
  return {
    env: { DATA_DIR: dataDir },
    instances: 1,
    open: async () => SqliteStore.atFile(path.join(dataDir, SQLITE_FILE_NAME), library),
  };
}

async function postgresSetup(): Promise<Setup> {
  const database = await createTestDatabase();
  const dataDir = tempDataDir();
  cleanups.push(async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const library = await testLibrary();
  const prepared = await PostgresStore.connect(database.url, library);
  await addTestBlocks(prepared, ['real']);
  await prepared.close();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    instances: 2,
    open: () => PostgresStore.connect(database.url, library),
  };
}

const kinds = [
  { name: 'sqlite, one instance', available: true, setup: sqliteSetup },
  { name: 'postgres, two instances', available: await postgresReachable(), setup: postgresSetup },
];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe.each(kinds)('wallet chaos ($name)', (kind) => {
  it.skipIf(!kind.available)(
    'every bet at the wallet has one sold unit or one rollback; every sold unit one win; balances and books agree',
    async () => {
      const setup = await kind.setup();
      const wallet: SpawnedWallet = await spawnWallet();
      cleanups.push(() => wallet.destroy());
      const env = {
        ...setup.env,
        CLIENT_DIR: setup.env.DATA_DIR!,
        // Portal players' money only: real blocks, no demo pool to make.
        DEMO_MODE: 'off',
        PORTAL_SECRET,
        ...wallet.gameEnv,
        WALLET_TIMEOUT_MS: '600',
        WALLET_RETRY_BASE_MS: '50',
        WALLET_RETRY_CAP_MS: '400',
        RATE_LIMIT_PER_MINUTE: '10000000',
      };
      const servers: (ChildServer | null)[] = [];
      cleanups.push(async () => servers.forEach((s) => s?.process.kill('SIGKILL')));
      for (let i = 0; i < setup.instances; i++) servers.push(await spawnServer(env));
      const live = () => servers.filter((s): s is ChildServer => s !== null);

      // Players, each with an account at the wallet and one session (valid on every instance).
      const players = Array.from({ length: PLAYERS }, (_, i) => `chaos${i}-${randomUUID().slice(0, 6)}`);
      const tokens = new Map<string, string>();
      for (const player of players) {
        await wallet.admin.createAccount(player, { balanceCents: START_CENTS });
        const launchToken = signLaunchToken(
          { playerId: player, exp: Math.floor(Date.now() / 1000) + 300 },
          PORTAL_SECRET,
        );
        const reply = await call<SessionResponse>(live()[0]!.url, 'POST', '/api/session', { body: { launchToken } });
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        tokens.set(player, reply.body.token);
      }
      const started = new Date(Date.now() - 1000);
      await wallet.admin.setFaults(FAULTS);

      const acknowledged = new Map<string, Play>();
      const owner = new Map<string, string>();
      const refused = new Map<string, string>();
      const unanswered = new Map<string, { player: string; stake: StakeCents }>();
      let acks = 0;
      const deposits = new Map<string, number>();
      let lastNetworkError: unknown = null;

      /** One « Jouer »; false when no server answered (killed under it, or none up). */
      async function send(player: string, playId: string, stake: StakeCents, n: number): Promise<boolean> {
        const up = live();
        if (up.length === 0) return false;
        let reply;
        try {
          reply = await call<PlayResponse & { error?: { code: string } }>(
            up[n % up.length]!.url,
            'POST',
            '/api/plays',
            {
              token: tokens.get(player)!,
              body: { playId, stakeCents: stake },
            },
          );
        } catch (error) {
          lastNetworkError = error;
          return false;
        }
        if (reply.status === 200) {
          const seen = acknowledged.get(playId);
          if (seen) expect(reply.body.play).toEqual(seen);
          acknowledged.set(playId, reply.body.play);
          owner.set(playId, `portal-${player}`);
          acks++;
        } else {
          // A refusal the player is told about: funds, limit, or the wallet not answering.
          expect([402, 403, 503], JSON.stringify(reply.body)).toContain(reply.status);
          refused.set(playId, reply.body.error!.code);
          if (reply.status === 402) {
            // Out of money: the player deposits at the operator, as a player would, and plays on.
            const deposit = await wallet.admin.adjust(player, DEPOSIT_CENTS);
            if (deposit.status === 'OK') deposits.set(player, (deposits.get(player) ?? 0) + DEPOSIT_CENTS);
          }
        }
        unanswered.delete(playId);
        return true;
      }

      let playing = true;
      const workers = players.map(async (player, p) => {
        for (let i = 0; playing; i++) {
          const playId = randomUUID();
          const stake = STAKES[(p + i) % STAKES.length]!;
          unanswered.set(playId, { player, stake });
          // Like the client: the same playId again until some server answers it.
          for (let n = p + i; playing && !(await send(player, playId, stake, n)); n++) await sleep(100);
        }
      });

      for (let kill = 0; kill < KILLS; kill++) {
        const target = acks + ACKS_PER_ROUND;
        while (acks < target) await sleep(20);
        const victim = kill % servers.length;
        const server = servers[victim]!;
        servers[victim] = null;
        server.process.kill('SIGKILL');
        expect(await server.exited).toBe('SIGKILL');
        servers[victim] = await spawnServer(env);
      }
      const target = acks + ACKS_PER_ROUND;
      while (acks < target) await sleep(20);
      playing = false;
      await Promise.all(workers);

      const faults = await wallet.admin.faults();
      if (faults.status !== 'OK' || !('counts' in faults)) throw new Error(JSON.stringify(faults));
      const c = faults.counts;
      expect(Math.min(c.delayed, c.errors, c.lostAnswers, c.duplicates, c.refusals)).toBeGreaterThan(0);
      expect((c.delayed + c.errors + c.lostAnswers + c.duplicates + c.refusals) / c.calls).toBeGreaterThanOrEqual(0.25);
      await wallet.admin.setFaults({});

      // What the client never saw answered is sent again under the same playId: one outcome each.
      // (A client retries until it gets an answer; this machine may be slow to accept a connection.)
      const retried = await Promise.all(
        [...unanswered].map(async ([playId, { player, stake }], n) => {
          for (let attempt = 0; attempt < 5; attempt++) {
            if (await send(player, playId, stake, n + attempt)) return true;
            await sleep(500);
          }
          return false;
        }),
      );
      expect(retried.every(Boolean), String((lastNetworkError as Error | null)?.cause ?? lastNetworkError)).toBe(true);

      const store = await setup.open();
      try {
        for (let i = 0; ; i++) {
          const owed = (await store.unsettledOutbox()).length + (await store.unresolvedWalletBets()).length;
          if (owed === 0) break;
          if (i > 300) throw new Error(`${owed} wallet call(s) still owed after 30 s`);
          await sleep(100);
        }
        for (const server of live()) server.process.kill('SIGTERM');
        for (const server of live()) expect(await server.exited).toBe(0);
        servers.fill(null);

        const calls = await store.walletCalls(started, new Date(Date.now() + 60_000));
        const statement = await getFullStatement(wallet.url, TEST_WALLET_SECRET, {
          from: started,
          to: new Date(Date.now() + 60_000),
        });
        if (statement.kind !== 'answer') throw new Error(statement.reason);
        const lines = statement.transactions.filter((t) => t.kind !== 'deposit' && t.kind !== 'withdrawal');
        const settlements = new Map<string, StatementEntry[]>();
        for (const t of lines) {
          if (t.betRequestId) settlements.set(t.betRequestId, [...(settlements.get(t.betRequestId) ?? []), t]);
        }
        const bets = new Map(calls.bets.map((b) => [b.requestId, b]));
        const expected = new Map(players.map((p) => [p, START_CENTS + (deposits.get(p) ?? 0)]));

        // Every bet at the wallet: one sold unit with exactly one win of its lot, or exactly one rollback.
        for (const t of lines.filter((l) => l.kind === 'bet')) {
          const bet = bets.get(t.requestId);
          expect(bet, `bet ${t.requestId} unknown to the game`).toBeDefined();
          const after = settlements.get(t.requestId) ?? [];
          expect(after, `bet ${t.requestId}: one settlement`).toHaveLength(1);
          if (bet!.state === 'sold') {
            const play = await store.getPlay(bet!.playerId, bet!.playId);
            expect(after[0]).toMatchObject({ kind: 'win', amountCents: play!.winCents, roundId: bet!.playId });
          } else {
            expect(bet!.state).toBe('cancelled');
            expect(after[0]).toMatchObject({ kind: 'rollback', movedCents: bet!.stakeCents });
          }
        }
        // Every sold unit: its bet and its win at the wallet; the money as the books say.
        let sold = 0;
        for (const bet of calls.bets.filter((b) => b.state === 'sold')) {
          sold++;
          const play = await store.getPlay(bet.playerId, bet.playId);
          expect(play).not.toBeNull();
          expect(lines.filter((t) => t.requestId === bet.requestId && t.kind === 'bet')).toHaveLength(1);
          expected.set(bet.walletPlayerId, expected.get(bet.walletPlayerId)! - bet.stakeCents + play!.winCents);
        }
        // A rollback never reverses a settled bet; one that found no bet moved nothing.
        for (const t of lines.filter((l) => l.kind === 'rollback')) {
          expect(bets.get(t.betRequestId!)?.state).toBe('cancelled');
          const taken = lines.some((l) => l.kind === 'bet' && l.requestId === t.betRequestId);
          expect(t.movedCents).toBe(taken ? t.amountCents : 0);
        }
        expect(calls.outbox.filter((o) => o.state !== 'done')).toEqual([]);
        for (const player of players) {
          const answer = await wallet.admin.account(player);
          expect(answer.status === 'OK' && 'account' in answer ? answer.account.balanceCents : null).toBe(
            expected.get(player),
          );
        }
        // What the players were told is what the books hold.
        for (const [playId, play] of acknowledged) {
          const stored = await store.getPlay(owner.get(playId)!, playId);
          expect(stored?.winCents).toBe(play.winCents);
          expect(stored?.unit.wheels).toEqual(play.wheels);
        }
        expect(sold).toBeGreaterThanOrEqual(acknowledged.size);
        expect(acknowledged.size).toBeGreaterThanOrEqual((KILLS + 1) * ACKS_PER_ROUND);

        const library = await testLibrary();
        const report = await store.readSnapshot(() => auditLedger(store, library));
        expect(report.problems).toEqual([]);
        const printed: string[] = [];
        const config = loadConfig({ ...env, PORT: '0' });
        const code = await reconcileCommand(store, config.wallet!, { from: started, to: new Date() }, false, (l) =>
          printed.push(l),
        );
        expect(printed.filter((l) => !l.startsWith('AGREE') && !l.startsWith('reconcile'))).toEqual([]);
        expect(code).toBe(0);
        console.log(
          `wallet chaos (${kind.name}): ${c.calls} wallet calls, ${c.delayed} delayed, ${c.errors} 5xx, ` +
            `${c.lostAnswers} answers lost, ${c.duplicates} duplicated, ${c.refusals} refused; ` +
            `${acknowledged.size} plays acknowledged, ${sold} sold, ${refused.size} refused ` +
            `(${[...new Set(refused.values())].map((code) => `${code} ${[...refused.values()].filter((v) => v === code).length}`).join(', ')}), ` +
            `${[...deposits.values()].reduce((a, b) => a + b, 0) / 100} € deposited, ${KILLS} kills; ` +
            `${printed.length - 1} reconciliation lines agree; ${lines.length} wallet log lines`,
        );
      } finally {
        await store.close();
      }
    },
    240_000,
  );
});

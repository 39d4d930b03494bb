/**
 * `npm run bench:wallet`: plays/s and latency of portal plays paid at the reference operator
 * wallet (its own process, on loopback), next to the embedded ledger's demo plays on the
 * same game server in the same run, at 16 and 64 connections; then with 5 ms added to
 * every wallet call (the wallet's fault mode). Rounds are taken in turn (embedded, wallet,
 * wallet + 5 ms), each figure the median of its rounds. Writes `## Wallet` in BENCHMARKS.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { newPlayId } from '../src/client/net/playId.ts';
import { SqliteStore } from '../src/server/store/sqlite/sqliteStore.ts';
import { testLibrary } from '../src/server/testing/blockCache.ts';
import { spawnServer, type ChildServer } from '../src/server/testing/child.ts';
import { addTestBlocks, tempDataDir } from '../src/server/testing/harness.ts';
import { spawnWallet, TEST_WALLET_SECRET, type SpawnedWallet } from '../src/server/testing/operatorWallet.ts';
import { signLaunchToken } from '../src/server/tokens.ts';
import { signBody, SIGNATURE_HEADER } from '../src/wallet/signature.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';
import { processCpuMs } from './processCpu.ts';
import { randomUUID } from 'node:crypto';

const CONNECTIONS = [16, 64];
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_S = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORTAL_SECRET = 'portal-secret-for-the-wallet-benchmark-01';
const ADDED_LATENCY_MS = 5;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  /** CPU time each process spent per answered request (µs): what it would need on a machine of its own. */
  gameCpuUs: number;
  walletCpuUs: number;
}

type Mode = 'embedded' | 'wallet' | 'wallet + 5 ms' | 'control: wallet alone';
const MODES: Mode[] = ['embedded', 'wallet', 'wallet + 5 ms', 'control: wallet alone'];

/** The processes whose CPU each run is charged to. */
interface Measured {
  game: number;
  wallet: number;
}

function run(options: autocannon.Options, pids: Measured): Promise<Figures> {
  const gameBefore = processCpuMs(pids.game);
  const walletBefore = processCpuMs(pids.wallet);
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => {
      if (error) return reject(error);
      const answered = Math.max(1, result.requests.total);
      resolve({
        rps: result.requests.total / (result.duration || DURATION_S),
        p50: result.latency.p50,
        p99: result.latency.p99,
        failed: result.errors + result.timeouts + result.non2xx,
        gameCpuUs: ((processCpuMs(pids.game) - gameBefore) * 1000) / answered,
        walletCpuUs: ((processCpuMs(pids.wallet) - walletBefore) * 1000) / answered,
      });
    });
  });
}

async function session(url: string, body: object): Promise<string> {
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`session: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

function plays(url: string, token: string, connections: number, duration: number): autocannon.Options {
  return {
    url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/api/plays',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: `{"stakeCents":100,"playId":"${newPlayId()}"}` }),
      },
    ],
  };
}

/** The control: bets sent straight to the wallet (signed, as the game signs them), no game server. */
function walletAlone(wallet: SpawnedWallet, connections: number, duration: number): autocannon.Options {
  return {
    url: wallet.url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/bet',
        setupRequest: (request) => {
          const body = JSON.stringify({
            requestId: randomUUID(),
            playerId: 'bench-player',
            roundId: randomUUID(),
            amountCents: 100,
            currency: 'EUR',
          });
          return {
            ...request,
            body,
            headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(TEST_WALLET_SECRET, body) },
          };
        },
      },
    ],
  };
}

async function setLatency(wallet: SpawnedWallet, mode: Mode): Promise<void> {
  await wallet.admin.setFaults(
    mode === 'wallet + 5 ms' ? { WALLET_FAULT_LATENCY_RATE: 1, WALLET_FAULT_LATENCY_MS: ADDED_LATENCY_MS } : {},
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  const dataDir = tempDataDir();
  const wallet = await spawnWallet();
  let server: ChildServer | null = null;
  try {
    const store = SqliteStore.open(dataDir, await testLibrary());
    await addTestBlocks(store);
    await store.close();
    server = await spawnServer({
      DATA_DIR: dataDir,
      CLIENT_DIR: dataDir,
      DEMO_BALANCE_CENTS: '100000000',
      RATE_LIMIT_PER_MINUTE: '10000000',
      PORTAL_SECRET,
      ...wallet.gameEnv,
    });
    const url = server.url;
    await wallet.admin.createAccount('bench-player', { balanceCents: 1_000_000_000 });
    const launchToken = signLaunchToken(
      { playerId: 'bench-player', exp: Math.floor(Date.now() / 1000) + 86_400 },
      PORTAL_SECRET,
    );
    const tokens: Record<Mode, string> = {
      embedded: await session(url, {}),
      wallet: await session(url, { launchToken }),
      'wallet + 5 ms': await session(url, { launchToken }),
      'control: wallet alone': '',
    };
    const load = (mode: Mode, connections: number, duration: number) =>
      mode === 'control: wallet alone'
        ? walletAlone(wallet, connections, duration)
        : plays(url, tokens[mode], connections, duration);
    const pids: Measured = { game: server.process.pid!, wallet: wallet.child.process.pid! };
    for (const mode of MODES) {
      await setLatency(wallet, mode);
      await run(load(mode, 16, WARMUP_S), pids);
    }
    const taken = new Map<string, Figures[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const connections of CONNECTIONS) {
        for (const mode of MODES) {
          await setLatency(wallet, mode);
          const figures = await run(load(mode, connections, DURATION_S), pids);
          const key = `${mode}|${connections}`;
          taken.set(key, [...(taken.get(key) ?? []), figures]);
          console.log(
            `round ${round + 1} ${mode.padEnd(14)} ${String(connections).padStart(2)} conn: ` +
              `${figures.rps.toFixed(0)} plays/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.failed} failed, ` +
              `CPU µs per play: game ${figures.gameCpuUs.toFixed(0)}, wallet ${figures.walletCpuUs.toFixed(0)}`,
          );
        }
      }
    }
    await setLatency(wallet, 'embedded');
    const cpus = os.cpus();
    const rows: string[] = [];
    for (const connections of CONNECTIONS) {
      const of = (mode: Mode) => {
        const list = taken.get(`${mode}|${connections}`)!;
        return {
          rps: median(list.map((f) => f.rps)),
          p50: median(list.map((f) => f.p50)),
          p99: median(list.map((f) => f.p99)),
          failed: list.reduce((n, f) => n + f.failed, 0),
          gameCpuUs: median(list.map((f) => f.gameCpuUs)),
          walletCpuUs: median(list.map((f) => f.walletCpuUs)),
          range: `${Math.min(...list.map((f) => f.rps)).toFixed(0)}–${Math.max(...list.map((f) => f.rps)).toFixed(0)}`,
        };
      };
      const base = of('embedded');
      for (const mode of MODES) {
        const f = of(mode);
        const control = mode === 'control: wallet alone';
        // The game server's CPU per play against the embedded ledger's: the plays/s ratio a game
        // server bound by its own CPU reaches when the wallet runs elsewhere.
        const cpuRatio = control ? '—' : `${(base.gameCpuUs / f.gameCpuUs).toFixed(2)} ×`;
        rows.push(
          `| ${mode} | ${connections} | ${f.rps.toFixed(0)} (${f.range}) | ${(f.rps / base.rps).toFixed(2)} × | ${f.p50} | ${f.p99} | ${f.failed} | ` +
            `${control ? '—' : f.gameCpuUs.toFixed(0)} | ${f.walletCpuUs.toFixed(0)} | ${cpuRatio} |`,
        );
      }
    }
    const loadAfter = os.loadavg()[0]!;
    await writeBenchmarkSection(
      '## Wallet',
      [
        '## Wallet',
        '',
        `\`npm run bench:wallet\`, ${new Date().toISOString().slice(0, 10)}: one game server (SQLite), the reference ` +
          `operator wallet as its own process on loopback, ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}; load average ` +
          `${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after. autocannon, ${DURATION_S} s per run after a ` +
          `${WARMUP_S} s warm-up; each figure the median of ${ROUNDS} rounds taken in turn (range in brackets). ` +
          '« embedded »: demo plays on the game’s own ledger; « wallet »: a portal player’s plays (bet, sale, win: ' +
          `two wallet calls and three commits per play); « wallet + 5 ms »: ${ADDED_LATENCY_MS} ms added to every wallet call; ` +
          '« control: wallet alone »: bets sent straight to the reference wallet (signed, no game server): its own pace, ' +
          'in calls/s — a wallet play needs two calls. CPU columns: user + system time of the game server and of the ' +
          'wallet per answered request (per call for the control); « × embedded, game CPU alone » is the embedded ' +
          'play’s game CPU over this mode’s: the plays/s ratio of a game server bound by its own CPU, with the wallet on ' +
          'a machine of its own (this machine’s two cores hold the game, the wallet and the load generator at once).',
        '',
        '| mode | connections | plays/s | × embedded | p50 ms | p99 ms | failed | game CPU µs/play | wallet CPU µs/play | × embedded, game CPU alone |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        ...rows,
        '',
      ].join('\n'),
      true,
    );
  } finally {
    server?.process.kill('SIGTERM');
    if (server) await server.exited;
    await wallet.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

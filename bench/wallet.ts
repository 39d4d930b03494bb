/**
 * `npm run bench:wallet`: plays/s and latency of portal plays paid at the reference operator
 * wallet (its own process, on loopback), next to the embedded ledger's demo plays on the
 * same game server in the same run, at 16 and 64 connections; then with 5 ms added to
 * every wallet call (the wallet's fault mode). Rounds are taken in turn (embedded, wallet,
 * wallet + 5 ms), each figure the median of its rounds. Writes `## Wallet` in BENCHMARKS.md.
 *
 * With `--machines`: the same runs with the game server, the wallet and the load generator
 * (wrk) each in a CPU group of its own, as on separate machines (bench/wallet/machines.ts);
 * writes `## Wallet, separate machines`.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { newPlayId } from '../src/client/net/playId.ts';
import { uuidV7 } from '../src/common/uuidV7.ts';
import { TEST_WALLET_SECRET } from '../src/server/testing/operatorWallet.ts';
import { singleKeyring } from '../src/walletApi/keyring.ts';
import { signedHeaders } from '../src/walletApi/signature.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';
import { autocannonLoad } from './loadGenerator.ts';
import { usageFrom, type ProcessUsage } from './processCpu.ts';
import {
  CALLS_ALONE,
  CONNECTIONS,
  MODES,
  MODES_EXPLAINED,
  runKey,
  summarize,
  type Figures,
  type Mode,
} from './wallet/figures.ts';
import type { CallsAloneResult } from './wallet/gameCallsAlone.ts';
import { measureMachines } from './wallet/machines.ts';
import { takeRounds, type Timing } from './wallet/rounds.ts';
import { BENCH_PLAYER, setUpStage, type Stage } from './wallet/stage.ts';

const TIMING: Timing = {
  durationS: Number(process.env.BENCH_SECONDS ?? 6),
  warmupS: 2,
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
};

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
function walletAlone(url: string, connections: number, duration: number): autocannon.Options {
  return {
    url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/bet',
        setupRequest: (request) => {
          const body = JSON.stringify({
            requestId: uuidV7(),
            playerId: BENCH_PLAYER,
            roundId: uuidV7(),
            amountCents: 100,
            currency: 'EUR',
          });
          return {
            ...request,
            body,
            headers: {
              'content-type': 'application/json',
              ...signedHeaders(singleKeyring(TEST_WALLET_SECRET), '/bet', body),
            },
          };
        },
      },
    ],
  };
}

const kib = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(1));

/** The default run's modes: both runs' and « control: game’s calls alone ». */
const HERE_MODES: Mode[] = [...MODES, CALLS_ALONE];

/** « control: game’s calls alone »: the game's wallet client in a process of its own, betting at the wallet. */
function gameCallsAlone(stage: Stage, connections: number, durationS: number): Promise<CallsAloneResult> {
  const script = path.resolve('bench/wallet/gameCallsAlone.ts');
  const args = ['--import', 'tsx', script, stage.wallet.url, TEST_WALLET_SECRET, BENCH_PLAYER];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...args, String(connections), String(durationS)], (error, stdout, stderr) => {
      if (error) return reject(new Error(`gameCallsAlone failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as CallsAloneResult);
    });
  });
}

/** Each process's CPU µs and disk KiB per answered request, from what it used over the run. */
function perRequest(used: Partial<Record<'game' | 'wallet', ProcessUsage>>, answered: number) {
  const cpuUs: Figures['cpuUs'] = {};
  const diskKiB: NonNullable<Figures['diskKiB']> = {};
  for (const [part, usage] of Object.entries(used) as ['game' | 'wallet', ProcessUsage][]) {
    cpuUs[part] = (usage.cpuMs * 1000) / answered;
    diskKiB[part] = usage.writtenBytes / 1024 / answered;
  }
  return { cpuUs, diskKiB };
}

async function measureCallsAlone(stage: Stage, connections: number, durationS: number): Promise<Figures> {
  const wallet = usageFrom(stage.wallet.child.process.pid!);
  const result = await gameCallsAlone(stage, connections, durationS);
  const answered = Math.max(1, result.calls);
  const { cpuUs, diskKiB } = perRequest({ wallet: wallet() }, answered);
  return {
    rps: result.calls / result.seconds,
    p50: result.p50,
    p99: result.p99,
    failed: result.failed,
    // The calling process's disk is not counted: it writes nothing.
    cpuUs: { game: result.cpuUs / answered, ...cpuUs },
    diskKiB,
  };
}

/** One run with autocannon in this process; the CPU of the game server and of the wallet from /proc. */
async function measureHere(stage: Stage, mode: Mode, connections: number, durationS: number): Promise<Figures> {
  if (mode === CALLS_ALONE) return measureCallsAlone(stage, connections, durationS);
  const game = usageFrom(stage.server.process.pid!);
  const wallet = usageFrom(stage.wallet.child.process.pid!);
  const result = await autocannonLoad(
    mode === 'control: wallet alone'
      ? walletAlone(stage.wallet.url, connections, durationS)
      : plays(stage.url, stage.tokens[mode], connections, durationS),
  );
  return {
    rps: result.requests / (result.seconds || durationS),
    p50: result.p50,
    p99: result.p99,
    failed: result.errors + result.non2xx,
    ...perRequest({ game: game(), wallet: wallet() }, Math.max(1, result.requests)),
  };
}

async function main(): Promise<void> {
  if (process.argv.includes('--machines')) return measureMachines(TIMING);
  const loadBefore = os.loadavg()[0]!;
  const stage = await setUpStage();
  try {
    const taken = await takeRounds(
      stage,
      TIMING,
      (mode, connections, durationS) => measureHere(stage, mode, connections, durationS),
      (f) =>
        `CPU µs per play: game ${f.cpuUs.game?.toFixed(0)}, wallet ${f.cpuUs.wallet?.toFixed(0)}; ` +
        `disk KiB per play: game ${kib(f.diskKiB?.game)}, wallet ${kib(f.diskKiB?.wallet)}`,
      HERE_MODES,
    );
    await writeSection(taken, loadBefore);
  } finally {
    await stage.close();
  }
}

async function writeSection(taken: Map<string, Figures[]>, loadBefore: number): Promise<void> {
  const cpus = os.cpus();
  const rows: string[] = [];
  const floors: string[] = [];
  for (const connections of CONNECTIONS) {
    const of = (mode: Mode) => summarize(taken.get(runKey(mode, connections))!);
    const base = of('embedded');
    for (const mode of HERE_MODES) {
      const f = of(mode);
      const walletAlone = mode === 'control: wallet alone';
      const game = f.cpuUs.game!;
      // The game server's CPU per play against the embedded ledger's: the plays/s ratio a game
      // server bound by its own CPU reaches when the wallet runs elsewhere.
      const cpuRatio = walletAlone || mode === CALLS_ALONE ? '—' : `${(base.cpuUs.game! / game).toFixed(2)} ×`;
      rows.push(
        `| ${mode} | ${connections} | ${f.rps.toFixed(0)} (${f.range[0].toFixed(0)}–${f.range[1].toFixed(0)}) | ${(f.rps / base.rps).toFixed(2)} × | ${f.p50} | ${f.p99} | ${f.failed} | ` +
          `${walletAlone ? '—' : game.toFixed(0)} | ${f.cpuUs.wallet!.toFixed(0)} | ${cpuRatio} | ` +
          `${walletAlone ? '—' : kib(f.diskKiB?.game)} | ${kib(f.diskKiB?.wallet)} |`,
      );
    }
    // A wallet play does all an embedded play does, and two calls besides.
    const embedded = base.cpuUs.game!;
    const call = of(CALLS_ALONE).cpuUs.game!;
    const floor = embedded + 2 * call;
    floors.push(
      `${connections} connections: ${embedded.toFixed(0)} + 2 × ${call.toFixed(0)} = ${floor.toFixed(0)} µs, ` +
        `at most **${(embedded / floor).toFixed(2)} ×**`,
    );
  }
  const loadAfter = os.loadavg()[0]!;
  await writeBenchmarkSection(
    '## Wallet',
    [
      '## Wallet',
      '',
      `\`npm run bench:wallet\`, ${new Date().toISOString().slice(0, 10)}: one game server (SQLite), the reference ` +
        `operator wallet as its own process on loopback, ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}; load average ` +
        `${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after. autocannon, ${TIMING.durationS} s per run after a ` +
        `${TIMING.warmupS} s warm-up; each figure the median of ${TIMING.rounds} rounds taken in turn (range in brackets). ` +
        `${MODES_EXPLAINED} CPU columns: user + system time of the game server and of the ` +
        'wallet per answered request (per call for the control); « × embedded, game CPU alone » is the embedded ' +
        'play’s game CPU over this mode’s: the plays/s ratio of a game server bound by its own CPU, with the wallet on ' +
        'a machine of its own (this machine’s two cores hold the game, the wallet and the load generator at once; ' +
        '`npm run bench:wallet -- --machines` measures it with CPU quotas). « control: game’s calls alone »: the game ' +
        'server’s own wallet client (signing, sending, checking the answer and its signature) in a process of its own, ' +
        'betting at the reference wallet with as many callers as connections; its game CPU column is that process’s, ' +
        'per call. Disk columns: bytes each process had written to storage (`write_bytes` of /proc/<pid>/io: WAL ' +
        'frames and checkpoints) per answered request.',
      '',
      'Floor of a wallet play’s game CPU from this run’s controls — an embedded play plus two of the game’s calls alone, ' +
        'before the bet’s durable record and the wallet books — and the « game CPU alone » ratio it leaves at best: ' +
        `${floors.join('; ')}.`,
      '',
      '| mode | connections | plays/s | × embedded | p50 ms | p99 ms | failed | game CPU µs/play | wallet CPU µs/play | × embedded, game CPU alone | game disk KiB/play | wallet disk KiB/play |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
    true,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npm run bench:wallet -- --machines`: the game server, the operator's wallet and the load
 * generator (wrk) each in a CPU group with a quota of its own, as if on three machines; the
 * embedded rows run the same game server under the same quota with the same load generator,
 * so that « × embedded » compares game servers of one size, with the wallet's CPU on the
 * operator's machine as in a deployment. Groups removed at the end, on failure and on Ctrl-C.
 */
import os from 'node:os';
import { TEST_WALLET_SECRET } from '../../src/server/testing/operatorWallet.ts';
import { nextWrkTag, runWrk, WRK_SCRIPTS, wrkAvailable } from '../loadGenerator.ts';
import { createGroups, type Groups } from '../machines/groups.ts';
import { describeWalletPlan, planWalletQuotas, throttlingBetween, type WalletQuotaPlan } from '../machines/quotas.ts';
import { usageFrom } from '../processCpu.ts';
import type { Figures, Mode, Part } from './figures.ts';
import { writeWalletMachinesSection } from './machinesSection.ts';
import { takeRounds, type Timing } from './rounds.ts';
import { BENCH_PLAYER, setUpStage, type Stage } from './stage.ts';

/**
 * Defaults for this two-core machine, each changed from the environment: the game server at a
 * fixed half core; the wallet, the operator's machine, with room enough not to be the limit
 * (a wallet play costs it about 0.7 × the game's CPU); wrk, about a fifth of autocannon's CPU
 * per request, with room for the embedded plays' pace. 0.3 core is left to the rest.
 */
export function walletQuotaPlanFromEnv(env: NodeJS.ProcessEnv = process.env): WalletQuotaPlan {
  return planWalletQuotas({
    cores: os.cpus().length,
    periodUs: Number(env.BENCH_CFS_PERIOD_US ?? 4_000),
    gameCores: Number(env.BENCH_GAME_CORES ?? 0.5),
    walletCores: Number(env.BENCH_WALLET_CORES ?? 0.8),
    loaderCores: Number(env.BENCH_LOADER_CORES ?? 0.4),
  });
}

const STAKE_CENTS = 100;
const PARTS: Part[] = ['game', 'wallet', 'loader'];

/** One run: wrk born in the load generator's group; each part's CPU and its group's periods at quota. */
async function measureInGroups(
  stage: Stage,
  groups: Groups<Part>,
  mode: Mode,
  connections: number,
  durationS: number,
): Promise<Figures> {
  const target =
    mode === 'control: wallet alone'
      ? ['-s', WRK_SCRIPTS.bets, stage.wallet.url, '--', TEST_WALLET_SECRET, BENCH_PLAYER, String(STAKE_CENTS)]
      : ['-s', WRK_SCRIPTS.plays, stage.url, '--', stage.tokens[mode], String(STAKE_CENTS)];
  target.push(String(nextWrkTag()));
  const game = usageFrom(stage.server.process.pid!);
  const wallet = usageFrom(stage.wallet.child.process.pid!);
  const statsBefore = PARTS.map((part) => groups.byName[part].stat());
  const result = await runWrk(connections, durationS, target, groups.byName.loader);
  const atQuota: Partial<Record<Part, number>> = {};
  PARTS.forEach((part, i) => {
    atQuota[part] = throttlingBetween(statsBefore[i]!, groups.byName[part].stat()).throttledShare;
  });
  const perRequestUs = (ms: number) => (ms * 1000) / Math.max(1, result.requests);
  return {
    rps: result.requests / result.seconds,
    p50: result.p50,
    p99: result.p99,
    failed: result.errors + result.non2xx,
    cpuUs: {
      game: perRequestUs(game().cpuMs),
      wallet: perRequestUs(wallet().cpuMs),
      ...(result.cpuMs === null ? {} : { loader: perRequestUs(result.cpuMs) }),
    },
    atQuota,
  };
}

const pct = (share: number | undefined) => (share === undefined ? '—' : `${Math.round(share * 100)} %`);
const us = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(0));

export async function measureMachines(timing: Timing): Promise<void> {
  if (!wrkAvailable()) throw new Error('--machines needs wrk and /usr/bin/time (apt-get install wrk time)');
  const plan = walletQuotaPlanFromEnv();
  const loadBefore = os.loadavg();
  const groups = createGroups<Part>(plan.periodUs, {
    game: plan.gameQuotaUs,
    wallet: plan.walletQuotaUs,
    loader: plan.loaderQuotaUs,
  });
  try {
    console.log(`--machines: wrk; quotas: ${describeWalletPlan(plan)}`);
    const stage = await setUpStage({
      game: groups.byName.game,
      wallet: groups.byName.wallet,
      children: groups.children,
    });
    groups.onTearDown(stage.deleteFiles);
    try {
      const taken = await takeRounds(
        stage,
        timing,
        (mode, connections, durationS) => measureInGroups(stage, groups, mode, connections, durationS),
        (f) =>
          `CPU µs per play: game ${us(f.cpuUs.game)}, wallet ${us(f.cpuUs.wallet)}, wrk ${us(f.cpuUs.loader)}; ` +
          `at quota: game ${pct(f.atQuota?.game)}, wallet ${pct(f.atQuota?.wallet)}, wrk ${pct(f.atQuota?.loader)}`,
      );
      await writeWalletMachinesSection({ taken, plan, timing, loadBefore, loadAfter: os.loadavg() });
    } finally {
      await stage.close();
    }
  } finally {
    groups.tearDown();
  }
}

/** `## Wallet, separate machines` in BENCHMARKS.md, from a `bench:wallet -- --machines` run. */
import os from 'node:os';
import { writeBenchmarkSection } from '../benchmarksFile.ts';
import { GROUP_SHARES } from '../machines/groups.ts';
import { AT_QUOTA, heldBack, QUOTA_USED, walletRowLimits, type GroupAtQuota } from '../machines/limit.ts';
import { describeWalletPlan, type WalletQuotaPlan } from '../machines/quotas.ts';
import {
  CONNECTIONS,
  formatMs,
  MODES,
  MODES_EXPLAINED,
  runKey,
  summarize,
  targetVerdicts,
  type Figures,
  type Mode,
  type Part,
  type Summary,
} from './figures.ts';
import type { Timing } from './rounds.ts';

export const WALLET_MACHINES_TITLE = '## Wallet, separate machines';

const pct = (share: number | undefined) => (share === undefined ? '—' : `${Math.round(share * 100)} %`);
const us = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(0));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Each group's quota, in cores. */
export type QuotaCores = Record<Part, number>;

const WHOSE: Record<Part, string> = { game: 'the game server', wallet: 'the wallet', loader: 'the load generator' };

/**
 * The groups a mode loads, with their periods at quota and the cores they used (CPU per request
 * × requests/s), for the limit column; the control leaves the game server idle, embedded plays the wallet.
 */
export function loadedGroups(mode: Mode, f: Summary, quotas: QuotaCores): GroupAtQuota[] {
  const parts: Part[] =
    mode === 'control: wallet alone'
      ? ['wallet', 'loader']
      : mode === 'embedded'
        ? ['game', 'loader']
        : ['game', 'wallet', 'loader'];
  return parts.map((part) => {
    const cpuUs = f.cpuUs[part];
    return {
      whose: WHOSE[part],
      atQuota: f.atQuota?.[part] ?? 0,
      ...(cpuUs === undefined ? {} : { used: { cores: (cpuUs * f.rps) / 1e6, quotaCores: quotas[part] } }),
    };
  });
}

/** One table row. */
export function machinesRow(
  mode: Mode,
  connections: number,
  f: Summary,
  embedded: Summary,
  quotas: QuotaCores,
): string {
  const control = mode === 'control: wallet alone';
  const limit = walletRowLimits({ groups: loadedGroups(mode, f, quotas), connections, rps: f.rps }).join('; then ');
  return (
    `| ${mode} | ${connections} | ${fmt(f.rps)} (${fmt(f.range[0])}–${fmt(f.range[1])}) | ${(f.rps / embedded.rps).toFixed(2)} × | ` +
    `${formatMs(f.p50)} | ${formatMs(f.p99)} | ${f.failed} | ` +
    `${control ? '—' : us(f.cpuUs.game)} | ${mode === 'embedded' ? '—' : us(f.cpuUs.wallet)} | ${us(f.cpuUs.loader)} | ` +
    `${control ? '—' : pct(f.atQuota?.game)} | ${mode === 'embedded' ? '—' : pct(f.atQuota?.wallet)} | ${pct(f.atQuota?.loader)} | ${limit} |`
  );
}

/**
 * Whether the wallet's group held the plays through it back (the rule of the limit column), with
 * its largest share of periods at quota and the most cores it used over those rows.
 */
export function walletQuotaLine(summaries: Map<string, Summary>, quotas: QuotaCores): string {
  const groups = CONNECTIONS.flatMap((connections) =>
    (['wallet', 'wallet + 5 ms'] as const).flatMap((mode) => {
      const f = summaries.get(runKey(mode, connections));
      return f ? loadedGroups(mode, f, quotas).filter((g) => g.whose === WHOSE.wallet) : [];
    }),
  );
  if (groups.length === 0) return '';
  const atQuota = Math.max(...groups.map((g) => g.atQuota));
  const cores = Math.max(...groups.map((g) => g.used?.cores ?? 0));
  return (
    `The wallet's group (the operator's machine, ${quotas.wallet} core): at its quota in at most ${pct(atQuota)} of the periods ` +
    `of the plays through it, using at most ${cores.toFixed(2)} core — ` +
    (groups.some(heldBack)
      ? '**it hit its quota**: those figures are bound by it, not by the game server.'
      : 'it did not hold the plays back.')
  );
}

export interface WalletMachinesRun {
  taken: Map<string, Figures[]>;
  plan: WalletQuotaPlan;
  timing: Timing;
  loadBefore: number[];
  loadAfter: number[];
}

export async function writeWalletMachinesSection(run: WalletMachinesRun): Promise<void> {
  const { plan, timing } = run;
  const summaries = new Map<string, Summary>();
  for (const [key, figures] of run.taken) summaries.set(key, summarize(figures));
  const quotas: QuotaCores = { game: plan.gameCores, wallet: plan.walletCores, loader: plan.loaderCores };
  const rows = CONNECTIONS.flatMap((connections) =>
    MODES.map((mode) =>
      machinesRow(
        mode,
        connections,
        summaries.get(runKey(mode, connections))!,
        summaries.get(runKey('embedded', connections))!,
        quotas,
      ),
    ),
  );
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const load = (l: number[]) => l.map((v) => v.toFixed(1)).join(' ');
  const lines = [
    WALLET_MACHINES_TITLE,
    '',
    `\`npm run bench:wallet -- --machines\`, ${new Date().toISOString().slice(0, 10)}, ${plan.cores} × ${cpu}, Node ${process.version}.`,
    '**This simulates separate machines on one**: the game server (SQLite), the reference operator wallet and the load',
    `generator each run in a Linux control group (cgroup v1 \`cpu\`) with a CFS quota of its own — ${describeWalletPlan(plan)}.`,
    `A quota alone is a ceiling, not a reservation: each group also weighs ${GROUP_SHARES} in \`cpu.shares\` (a busy process weighs 1,024),`,
    'so that it gets its quota first while other work keeps the cores busy. The embedded rows run the same game server under',
    'the same quota with the same load generator: « × embedded » compares game servers of one size, with the wallet’s CPU on',
    'the operator’s machine as in a deployment (the `## Wallet` section charges it to the same two cores).',
    `Load generator: wrk (Debian's, in C, one thread), born in its group; bench/wrk/plays.lua makes every request a new sale`,
    '(fresh playId), bench/wrk/bets.lua a new bet signed as the game signs it (HMAC-SHA256 through wrk’s own libcrypto).',
    `${timing.durationS} s per run after a ${timing.warmupS} s warm-up; each figure the median of ${timing.rounds} rounds taken in turn (plays/s: range in brackets).`,
    MODES_EXPLAINED,
    'CPU µs/play: user + system time per answered request (per call for the control) — the game server’s and the wallet’s',
    'from /proc, wrk’s from /usr/bin/time. « At quota »: share of the CFS periods in which the group used its whole quota and',
    'waited (cpu.stat nr_throttled ÷ nr_periods; the kernel counts only the periods in which the group had work). « Limit »: a',
    `group at its quota in ${pct(AT_QUOTA)} of its periods or more that used ${pct(QUOTA_USED)} of its quota or more (CPU µs/play × plays/s);`,
    'with none, connections ÷ plays/s is the time each request took, spent waiting (Little’s law).',
    `Load average at start / end: ${load(run.loadBefore)} / ${load(run.loadAfter)} (other engineers' work runs on these two cores at the same time).`,
    '',
    '| mode | connections | plays/s | × embedded | p50 ms | p99 ms | failed | game CPU µs/play | wallet CPU µs/play | load gen CPU µs/play | game at quota | wallet at quota | load gen at quota | limit |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Targets (medians): ${targetVerdicts(summaries).join('; ')}.`,
    walletQuotaLine(summaries, quotas),
    '',
    'What this does not show: network latency between the machines (all traffic is loopback; « wallet + 5 ms » stands in',
    'for a slower wallet or a network between them); separate disks (the game’s and the wallet’s fsyncs share one disk and',
    'page cache); separate CPU caches and memory bandwidth (the groups share two cores); a slower CPU (a quota runs at full',
    `speed, then waits for the next ${plan.periodUs / 1000} ms period); the benchmark's own process, outside every group (it waits while wrk runs).`,
    '',
  ];
  await writeBenchmarkSection(WALLET_MACHINES_TITLE, lines.join('\n'), true);
}

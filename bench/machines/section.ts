/** The `### Separate machines` part of BENCHMARKS.md's `## PostgreSQL`, from a `--machines` run. */
import os from 'node:os';
import { writeBenchmarkSubsection } from '../benchmarksFile.ts';
import type { Row } from '../postgres.ts';
import { namedLimits } from './limit.ts';
import { PRIVATE_SETTINGS } from './privatePostgres.ts';
import { describePlan, type QuotaPlan } from './quotas.ts';

export const MACHINES_TITLE = '### Separate machines (`--machines`)';
export const TARGETS = { two: 1.7, three: 2.2 } as const;

export interface MachinesRun {
  /** `cpu.shares` of every group. */
  shares: number;
  rows: Row[];
  plan: QuotaPlan;
  loader: string;
  durationS: number;
  warmupS: number;
  rounds: number;
  players: number;
  sampleMs: number;
  loadBefore: number[];
  loadAfter: number[];
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (share: number) => `${Math.round(share * 100)} %`;
const ms = (v: number) => (Number.isNaN(v) ? '—' : v < 10 ? v.toFixed(1) : String(Math.round(v)));
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** A stake's cursor, locked this share of the time for these plays/s, could carry plays/s ÷ share. */
export function cursorCapacity(r: Row): number | null {
  const held = r.waits?.cursorHeld;
  if (!held) return null;
  return r.rps / r.setup.stakes.length / held;
}

export async function writeMachinesSection(run: MachinesRun): Promise<void> {
  const { rows, plan, shares } = run;
  const find = (label: string) => rows.find((r) => r.setup.label === label);
  const pg1 = find('PostgreSQL, 1 instance');
  const pg2 = find('PostgreSQL, 2 instances');
  const pg3 = find('PostgreSQL, 3 instances');
  const each3 = find('PostgreSQL, 3 instances, a stake each');
  const h1 = find('HTTP only, 1 instance');
  const h3 = find('HTTP only, 3 instances');
  const base = (r: Row) => (r.setup.route === 'health' ? h1 : pg1);
  const ratio = (r: Row) => {
    const b = base(r);
    return b ? (r.rps / b.rps).toFixed(2) : '—';
  };
  const loader =
    run.loader === 'wrk'
      ? "wrk (Debian's, in C; one process per instance, all in the load generator's group)"
      : 'autocannon (in the benchmark process, outside every group)';
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const lines = [
    MACHINES_TITLE,
    '',
    `\`npm run bench:postgres -- --machines\`, ${new Date().toISOString().slice(0, 10)}, ${plan.cores} × ${cpu}, Node ${process.version}.`,
    '**This simulates separate machines on one**: each game-server instance, and PostgreSQL, runs in a Linux control group',
    `(cgroup v1 \`cpu\`) with a CFS quota of its own — ${describePlan(plan)}.`,
    `A quota alone is a ceiling, not a reservation: each group also weighs ${shares} in \`cpu.shares\` (a busy process weighs 1,024), so that`,
    'it gets its quota first while other work keeps the cores busy; the neighbours still take CPU caches, memory bandwidth and the disk.',
    `PostgreSQL is a private, throwaway cluster (initdb into a temporary directory, its own port, its postmaster born in its group so`,
    `every backend is too; ${Object.entries(PRIVATE_SETTINGS)
      .map(([k, v]) => `\`${k} = ${v}\``)
      .join(', ')}, as the machine's cluster), stopped and deleted at the end.`,
    `Load generator: ${loader}; ${rows[0]?.connectionsPerInstance ?? '?'} connections per instance (each simulated machine gets the same load), each`,
    `player on one instance, ${run.durationS} s per figure after a ${run.warmupS} s warm-up, ${run.rounds} rounds taken in turn (median run shown, with the range);`,
    `${run.players} players, every request a new sale. "HTTP only": \`GET /api/health\` under the same quotas, no database work (requests/s).`,
    '"At quota": share of the CFS periods in which the group used its whole quota and waited (cpu.stat). "Cursor held": share of',
    `pg_stat_activity/pgrowlocks samples (every ${run.sampleMs} ms) in which a batch held the stake's block cursor row; "cursor capacity" = plays/s of that`,
    'stake ÷ cursor held: what the row carries at this batch size when locked back to back.',
    `Load average at start / end: ${run.loadBefore.map((l) => l.toFixed(1)).join(' ')} / ${run.loadAfter.map((l) => l.toFixed(1)).join(' ')}`,
    "(other engineers' work runs on these two cores at the same time).",
    '',
    '| setup | plays/s | range | ÷ ×1 | p50 ms | p99 ms | CPU per instance | instances at quota | CPU PostgreSQL | PostgreSQL at quota | CPU load gen | lock waits | WAL waits | on instance | plays / txn | cursor held | cursor capacity |',
    '| ----- | ------: | ----: | ---: | -----: | -----: | ---------------- | -----------------: | -------------: | ------------------: | -----------: | ---------: | --------: | ----------: | ----------: | ----------: | --------------: |',
    ...rows.map((r) => {
      const capacity = cursorCapacity(r);
      return (
        `| ${r.setup.label} | ${fmt(r.rps)} | ${r.range ? `${fmt(r.range[0])}–${fmt(r.range[1])}` : '—'} | ${ratio(r)} | ${ms(r.p50)} | ${ms(r.p99)} | ` +
        `${r.instanceCpuMs.map((v) => pct(v / r.wallMs)).join(' + ')} | ${(r.instanceThrottling ?? []).map((t) => pct(t.throttledShare)).join(' + ')} | ` +
        `${r.setup.store === 'postgres' ? `${pct(r.postgresCpuMs / r.wallMs)} of ${pct(plan.postgresCores)}` : '—'} | ` +
        `${r.setup.store === 'postgres' && r.postgresThrottling ? pct(r.postgresThrottling.throttledShare) : '—'} | ${pct(r.loaderCpuMs / r.wallMs)} | ` +
        `${r.waits ? r.waits.lock.toFixed(2) : '—'} | ${r.waits ? r.waits.walFlush.toFixed(2) : '—'} | ${r.waits ? r.waits.onInstance.toFixed(2) : '—'} | ` +
        `${r.playsPerTxn ? r.playsPerTxn.toFixed(1) : '—'} | ${r.waits?.cursorHeld !== undefined ? pct(r.waits.cursorHeld) : '—'} | ${capacity ? fmt(capacity) : '—'} |`
      );
    }),
    '',
  ];
  if (pg1 && pg2 && pg3) {
    const two = pg2.rps / pg1.rps;
    const three = pg3.rps / pg1.rps;
    const verdict = (v: number, target: number) =>
      `**${v.toFixed(2)} ×** (target ≥ ${target}: ${v >= target ? 'met' : 'not met'})`;
    lines.push(
      `Targets, the same quota per instance, one stake (one cursor row for all instances): 2 instances ${verdict(two, TARGETS.two)}, ` +
        `3 instances ${verdict(three, TARGETS.three)} one instance's plays/s.` +
        (each3 ? ` With a stake each (no cursor shared): 3 instances **${(each3.rps / pg1.rps).toFixed(2)} ×**.` : '') +
        (h1 && h3
          ? ` Control, HTTP only under the same quotas: 3 instances **${(h3.rps / h1.rps).toFixed(2)} ×** one.`
          : ''),
    );
    const limits = namedLimits({
      instancesAtQuota: avg((pg3.instanceThrottling ?? []).map((t) => t.throttledShare)),
      postgresAtQuota: pg3.postgresThrottling?.throttledShare ?? 0,
      cursorHeld: pg3.waits?.cursorHeld ?? 0,
      lockWaits: pg3.waits?.lock ?? 0,
    });
    lines.push(
      `Limit at 3 instances on one stake: ${limits.length > 0 ? limits.join('; then ') : 'none of the quotas nor the cursor (the load, or the machine around them)'}. ` +
        `PostgreSQL used ${pct(pg3.postgresCpuMs / pg3.wallMs)} of a core against its quota of ${pct(plan.postgresCores)}.`,
    );
  }
  lines.push(
    `Errors or non-2xx answers during the measured runs: ${rows.reduce((n, r) => n + r.errors + r.non2xx, 0)}.`,
  );
  await writeBenchmarkSubsection('## PostgreSQL', MACHINES_TITLE, lines.join('\n') + '\n');
}

/**
 * The CPU quotas of `npm run bench:postgres -- --machines`, and the cgroup v1 numbers it
 * reads back: pure, so that the plan and the parsing are tested without a kernel.
 */

export interface QuotaRequest {
  /** Cores of the machine. */
  cores: number;
  /** The most instances measured at once: every one of them gets `instanceCores`. */
  maxInstances: number;
  /** Each game-server instance's share, in cores (the same for 1, 2 and 3 instances). */
  instanceCores: number;
  /** PostgreSQL's share, in cores. */
  postgresCores: number;
  /** Left outside every quota: the load generator, the benchmark's own process. */
  loaderCores: number;
  /** The CFS period, µs: the quota is spent within each period, then the group waits. */
  periodUs: number;
}

export interface QuotaPlan extends QuotaRequest {
  /** `cpu.cfs_quota_us` of each instance's group. */
  instanceQuotaUs: number;
  /** `cpu.cfs_quota_us` of PostgreSQL's group. */
  postgresQuotaUs: number;
  /** `cpu.cfs_quota_us` of the load generator's group: what is left of the cores. */
  loaderQuotaUs: number;
}

/** The kernel takes periods from 1 ms to 1 s, and quotas of at least 1 ms. */
const MIN_US = 1_000;
const MAX_PERIOD_US = 1_000_000;

/**
 * The quotas in µs per period; refuses a plan whose quotas and the load generator's room
 * do not fit in the machine's cores (each group would then not have "a machine of its own").
 */
export function planQuotas(request: QuotaRequest): QuotaPlan {
  const { cores, maxInstances, instanceCores, postgresCores, loaderCores, periodUs } = request;
  if (!Number.isInteger(periodUs) || periodUs < MIN_US || periodUs > MAX_PERIOD_US)
    throw new Error(`CFS period ${periodUs} µs: must be a whole number from ${MIN_US} to ${MAX_PERIOD_US}`);
  for (const [name, value] of [
    ['instance', instanceCores],
    ['PostgreSQL', postgresCores],
  ] as const) {
    if (!(value > 0)) throw new Error(`${name} quota ${value} cores: must be above 0`);
    if (Math.round(value * periodUs) < MIN_US)
      throw new Error(`${name} quota ${value} cores × ${periodUs} µs is under the kernel's 1 ms minimum`);
  }
  if (!(loaderCores >= 0)) throw new Error(`room for the load generator ${loaderCores} cores: must be 0 or more`);
  const needed = maxInstances * instanceCores + postgresCores + loaderCores;
  // A little tolerance: 3 × 0.3 + 0.8 + 0.3 is 2.0000000000000004 in floating point.
  if (needed > cores + 1e-9)
    throw new Error(
      `${maxInstances} × ${instanceCores} (instances) + ${postgresCores} (PostgreSQL) + ${loaderCores} (load generator) ` +
        `= ${needed.toFixed(2)} cores: more than the machine's ${cores}`,
    );
  return {
    ...request,
    instanceQuotaUs: Math.round(instanceCores * periodUs),
    postgresQuotaUs: Math.round(postgresCores * periodUs),
    loaderQuotaUs: Math.round((cores - maxInstances * instanceCores - postgresCores) * periodUs),
  };
}

/** One line for the output and BENCHMARKS.md. */
export function describePlan(plan: QuotaPlan): string {
  const used = plan.maxInstances * plan.instanceCores + plan.postgresCores;
  return (
    `each instance ${plan.instanceCores} core (${plan.instanceQuotaUs} µs per ${plan.periodUs} µs period), ` +
    `PostgreSQL ${plan.postgresCores} core (${plan.postgresQuotaUs} µs), ` +
    `${plan.maxInstances} instances + PostgreSQL = ${round2(used)} of ${plan.cores} cores, ` +
    `the load generator the ${round2(plan.cores - used)} core left (${plan.loaderQuotaUs} µs)`
  );
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A group's `cpu.stat`: periods run, periods that hit the quota, time spent waiting for the next period. */
export interface CpuStat {
  periods: number;
  throttled: number;
  throttledNs: number;
}

/** Parses cgroup v1 `cpu.stat` (`nr_periods N`, `nr_throttled N`, `throttled_time NS`, maybe more lines). */
export function parseCpuStat(text: string): CpuStat {
  const fields = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+) (\d+)$/.exec(line.trim());
    if (match) fields.set(match[1]!, Number(match[2]));
  }
  const field = (name: string) => {
    const value = fields.get(name);
    if (value === undefined) throw new Error(`cpu.stat without ${name}: ${JSON.stringify(text)}`);
    return value;
  };
  return { periods: field('nr_periods'), throttled: field('nr_throttled'), throttledNs: field('throttled_time') };
}

/** What a group did between two readings of its `cpu.stat`. */
export interface Throttling {
  /** Share of the periods in which the group used its whole quota and had to wait: 0 to 1. */
  throttledShare: number;
  /** Time its processes were held back, ms (summed over the periods). */
  throttledMs: number;
}

export function throttlingBetween(before: CpuStat, after: CpuStat): Throttling {
  const periods = after.periods - before.periods;
  return {
    throttledShare: periods > 0 ? (after.throttled - before.throttled) / periods : 0,
    throttledMs: (after.throttledNs - before.throttledNs) / 1e6,
  };
}

/** Parses `cgroup.procs`: one PID a line. */
export function parseProcs(text: string): number[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      if (!/^\d+$/.test(line)) throw new Error(`cgroup.procs line not a PID: ${JSON.stringify(line)}`);
      return Number(line);
    });
}

/** The path of this process's group in the cgroup v1 `cpu` hierarchy, from /proc/self/cgroup. */
export function cpuGroupOf(procSelfCgroup: string): string {
  for (const line of procSelfCgroup.split('\n')) {
    // `ID:CONTROLLERS:PATH`; the path may itself hold colons.
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first < 0 || second < 0) continue;
    if (
      line
        .slice(first + 1, second)
        .split(',')
        .includes('cpu')
    )
      return line.slice(second + 1);
  }
  throw new Error(`no cgroup v1 cpu controller in /proc/self/cgroup: ${JSON.stringify(procSelfCgroup)}`);
}

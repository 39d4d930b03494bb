/**
 * The CPU quotas of `npm run bench:postgres -- --machines` and `bench:wallet -- --machines`,
 * and the cgroup v1 numbers they read back: pure, so that the plan and the parsing are tested without a kernel.
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

function checkPeriod(periodUs: number): void {
  if (!Number.isInteger(periodUs) || periodUs < MIN_US || periodUs > MAX_PERIOD_US)
    throw new Error(`CFS period ${periodUs} µs: must be a whole number from ${MIN_US} to ${MAX_PERIOD_US}`);
}

/** A group's `cores` as its `cpu.cfs_quota_us`; refused at 0 or under the kernel's minimum. */
function quotaUsOf(name: string, cores: number, periodUs: number): number {
  if (!(cores > 0)) throw new Error(`${name} quota ${cores} cores: must be above 0`);
  const quotaUs = Math.round(cores * periodUs);
  if (quotaUs < MIN_US)
    throw new Error(`${name} quota ${cores} cores × ${periodUs} µs is under the kernel's 1 ms minimum`);
  return quotaUs;
}

/**
 * Refuses shares of the machine (`text`: how the message names one) that add up to more than
 * its cores: each group would then not have "a machine of its own".
 */
function checkFits(parts: { text: string; cores: number }[], cores: number): void {
  const needed = parts.reduce((sum, part) => sum + part.cores, 0);
  // A little tolerance: 3 × 0.3 + 0.8 + 0.3 is 2.0000000000000004 in floating point.
  if (needed > cores + 1e-9)
    throw new Error(
      `${parts.map((part) => part.text).join(' + ')} = ${needed.toFixed(2)} cores: more than the machine's ${cores}`,
    );
}

/**
 * The quotas in µs per period; refuses a plan whose quotas and the load generator's room
 * do not fit in the machine's cores.
 */
export function planQuotas(request: QuotaRequest): QuotaPlan {
  const { cores, maxInstances, instanceCores, postgresCores, loaderCores, periodUs } = request;
  checkPeriod(periodUs);
  const instanceQuotaUs = quotaUsOf('instance', instanceCores, periodUs);
  const postgresQuotaUs = quotaUsOf('PostgreSQL', postgresCores, periodUs);
  if (!(loaderCores >= 0)) throw new Error(`room for the load generator ${loaderCores} cores: must be 0 or more`);
  checkFits(
    [
      { text: `${maxInstances} × ${instanceCores} (instances)`, cores: maxInstances * instanceCores },
      { text: `${postgresCores} (PostgreSQL)`, cores: postgresCores },
      { text: `${loaderCores} (load generator)`, cores: loaderCores },
    ],
    cores,
  );
  return {
    ...request,
    instanceQuotaUs,
    postgresQuotaUs,
    loaderQuotaUs: Math.round((cores - maxInstances * instanceCores - postgresCores) * periodUs),
  };
}

/** The machines of `npm run bench:wallet -- --machines`, in cores: the game server, the operator's wallet, the load generator. */
export interface WalletQuotaRequest {
  cores: number;
  periodUs: number;
  gameCores: number;
  walletCores: number;
  loaderCores: number;
}

export interface WalletQuotaPlan extends WalletQuotaRequest {
  gameQuotaUs: number;
  walletQuotaUs: number;
  loaderQuotaUs: number;
}

/** Each group's quota in µs per period; refuses quotas that do not fit in the machine's cores. */
export function planWalletQuotas(request: WalletQuotaRequest): WalletQuotaPlan {
  const { cores, periodUs, gameCores, walletCores, loaderCores } = request;
  checkPeriod(periodUs);
  const plan = {
    ...request,
    gameQuotaUs: quotaUsOf('game server', gameCores, periodUs),
    walletQuotaUs: quotaUsOf('wallet', walletCores, periodUs),
    loaderQuotaUs: quotaUsOf('load generator', loaderCores, periodUs),
  };
  checkFits(
    [
      { text: `${gameCores} (game server)`, cores: gameCores },
      { text: `${walletCores} (wallet)`, cores: walletCores },
      { text: `${loaderCores} (load generator)`, cores: loaderCores },
    ],
    cores,
  );
  return plan;
}

/** One line for the output and BENCHMARKS.md. */
export function describeWalletPlan(plan: WalletQuotaPlan): string {
  const used = plan.gameCores + plan.walletCores + plan.loaderCores;
  return (
    `the game server ${plan.gameCores} core (${plan.gameQuotaUs} µs per ${plan.periodUs} µs period), ` +
    `the wallet ${plan.walletCores} core (${plan.walletQuotaUs} µs), ` +
    `the load generator ${plan.loaderCores} core (${plan.loaderQuotaUs} µs): ${round2(used)} of ${plan.cores} cores`
  );
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

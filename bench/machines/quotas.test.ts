import { describe, expect, it } from 'vitest';
import { heldBack, namedLimits, walletRowLimits } from './limit.ts';
import {
  cpuGroupOf,
  describePlan,
  describeWalletPlan,
  parseCpuStat,
  parseProcs,
  planQuotas,
  planWalletQuotas,
  throttlingBetween,
} from './quotas.ts';

const TWO_CORES = {
  cores: 2,
  maxInstances: 3,
  instanceCores: 0.25,
  postgresCores: 0.8,
  loaderCores: 0.4,
  periodUs: 4_000,
};

describe('planQuotas', () => {
  it('gives each group its quota per period and the load generator what is left', () => {
    const plan = planQuotas(TWO_CORES);
    expect(plan.instanceQuotaUs).toBe(1_000);
    expect(plan.postgresQuotaUs).toBe(3_200);
    expect(plan.loaderQuotaUs).toBe(1_800); // 2 − 3 × 0.25 − 0.8 = 0.45 core
    expect(describePlan(plan)).toContain('3 instances + PostgreSQL = 1.55 of 2 cores');
  });

  it('accepts quotas that fill the cores exactly (despite floating point)', () => {
    expect(() => planQuotas({ ...TWO_CORES, instanceCores: 0.3, postgresCores: 0.8, loaderCores: 0.3 })).not.toThrow();
  });

  it('refuses quotas that do not fit the cores with room for the load generator', () => {
    expect(() => planQuotas({ ...TWO_CORES, instanceCores: 0.4 })).toThrow(/2\.40 cores: more than the machine's 2/);
    expect(() => planQuotas({ ...TWO_CORES, loaderCores: 0.5 })).toThrow(/more than the machine's 2/);
  });

  it('refuses periods and quotas the kernel would refuse', () => {
    expect(() => planQuotas({ ...TWO_CORES, periodUs: 999 })).toThrow(/period/);
    expect(() => planQuotas({ ...TWO_CORES, periodUs: 2_000_000 })).toThrow(/period/);
    expect(() => planQuotas({ ...TWO_CORES, periodUs: 2_000 })).toThrow(/instance quota .* 1 ms minimum/);
    expect(() => planQuotas({ ...TWO_CORES, postgresCores: 0 })).toThrow(/PostgreSQL quota 0/);
    expect(() => planQuotas({ ...TWO_CORES, instanceCores: Number.NaN })).toThrow(/instance quota/);
  });
});

const WALLET_MACHINES = { cores: 2, periodUs: 4_000, gameCores: 0.5, walletCores: 0.8, loaderCores: 0.4 };

describe('planWalletQuotas', () => {
  it('gives the game server, the wallet and the load generator each its quota per period', () => {
    const plan = planWalletQuotas(WALLET_MACHINES);
    expect([plan.gameQuotaUs, plan.walletQuotaUs, plan.loaderQuotaUs]).toEqual([2_000, 3_200, 1_600]);
    expect(describeWalletPlan(plan)).toBe(
      'the game server 0.5 core (2000 µs per 4000 µs period), the wallet 0.8 core (3200 µs), ' +
        'the load generator 0.4 core (1600 µs): 1.7 of 2 cores',
    );
  });

  it('refuses machines that do not fit the cores, and quotas the kernel would refuse', () => {
    expect(() => planWalletQuotas({ ...WALLET_MACHINES, walletCores: 1.2 })).toThrow(
      "0.5 (game server) + 1.2 (wallet) + 0.4 (load generator) = 2.10 cores: more than the machine's 2",
    );
    expect(() => planWalletQuotas({ ...WALLET_MACHINES, loaderCores: 0 })).toThrow(/load generator quota 0 cores/);
    expect(() => planWalletQuotas({ ...WALLET_MACHINES, gameCores: 0.2 })).toThrow(/game server quota .* 1 ms minimum/);
    expect(() => planWalletQuotas({ ...WALLET_MACHINES, periodUs: 4_000.5 })).toThrow(/period/);
  });
});

describe('cgroup numbers', () => {
  it('reads cpu.stat, with or without the newer lines', () => {
    const text = 'nr_periods 1200\nnr_throttled 300\nthrottled_time 4500000000\nnr_bursts 0\nburst_time 0\n';
    expect(parseCpuStat(text)).toEqual({ periods: 1200, throttled: 300, throttledNs: 4_500_000_000 });
    expect(parseCpuStat('nr_periods 1\nnr_throttled 0\nthrottled_time 0')).toEqual({
      periods: 1,
      throttled: 0,
      throttledNs: 0,
    });
    expect(() => parseCpuStat('nr_periods 1\n')).toThrow(/nr_throttled/);
  });

  it('turns two readings into the share of periods at quota and the time held back', () => {
    const before = { periods: 1000, throttled: 100, throttledNs: 1e9 };
    const after = { periods: 3000, throttled: 1600, throttledNs: 4.5e9 };
    expect(throttlingBetween(before, after)).toEqual({ throttledShare: 0.75, throttledMs: 3500 });
    expect(throttlingBetween(before, before)).toEqual({ throttledShare: 0, throttledMs: 0 });
  });

  it('reads cgroup.procs and refuses anything but PIDs', () => {
    expect(parseProcs('12\n345\n\n')).toEqual([12, 345]);
    expect(parseProcs('')).toEqual([]);
    expect(() => parseProcs('12\nabc\n')).toThrow(/not a PID/);
  });

  it('finds the cpu controller in /proc/self/cgroup, alone or joined with cpuacct', () => {
    expect(cpuGroupOf('4:memory:/a\n2:cpuacct:/\n1:cpu:/bench/x\n0::/\n')).toBe('/bench/x');
    expect(cpuGroupOf('3:cpu,cpuacct:/user.slice/a:b\n')).toBe('/user.slice/a:b');
    expect(() => cpuGroupOf('0::/\n')).toThrow(/no cgroup v1 cpu controller/);
  });
});

describe('namedLimits', () => {
  it('names what shows, the most in evidence first', () => {
    expect(namedLimits({ instancesAtQuota: 0.75, postgresAtQuota: 0.04, cursorHeld: 0.89, lockWaits: 1.14 })).toEqual([
      'the block cursor row (locked 89 % of the time, 1.14 batches waiting for it on average)',
      "each instance's CPU (at its quota in 75 % of the periods)",
    ]);
    expect(namedLimits({ instancesAtQuota: 0.2, postgresAtQuota: 0.9, cursorHeld: 0.3, lockWaits: 0 })).toEqual([
      "PostgreSQL's CPU (at its quota in 90 % of the periods)",
    ]);
    expect(namedLimits({ instancesAtQuota: 0.1, postgresAtQuota: 0.1, cursorHeld: 0.1, lockWaits: 0 })).toEqual([]);
  });
});

describe('walletRowLimits', () => {
  const game = (atQuota: number, cores: number) => ({
    whose: 'the game server',
    atQuota,
    used: { cores, quotaCores: 0.5 },
  });

  it('names the groups held back by their quota, the most at quota first', () => {
    expect(
      walletRowLimits({
        groups: [game(0.86, 0.5), { whose: 'the wallet', atQuota: 0.9, used: { cores: 0.78, quotaCores: 0.8 } }],
        connections: 64,
        rps: 675,
      }),
    ).toEqual([
      "the wallet's CPU (at its quota in 90 % of the periods, 0.78 of its 0.8 core used)",
      "the game server's CPU (at its quota in 86 % of the periods, 0.50 of its 0.5 core used)",
    ]);
  });

  it('does not name a group that used little of its quota, however many of its few busy periods hit it', () => {
    // cpu.stat counts only the periods with work: an idle game server's few periods can all be at quota.
    expect(heldBack(game(0.45, 0.01))).toBe(false);
    expect(heldBack(game(0.9, 0.3))).toBe(false);
    expect(heldBack(game(0.9, 0.45))).toBe(true);
    expect(heldBack({ whose: 'PostgreSQL', atQuota: 0.5 })).toBe(true);
  });

  it('with no group held back, names the waits: connections ÷ plays/s per request', () => {
    expect(walletRowLimits({ groups: [game(0.3, 0.2)], connections: 64, rps: 3_671 })).toEqual([
      'no quota: the waits (64 connections ÷ 3,671 per s = 17.4 ms a request)',
    ]);
  });
});

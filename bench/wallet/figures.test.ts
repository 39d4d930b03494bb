import { describe, expect, it } from 'vitest';
import { runKey, summarize, targetVerdicts, type Figures, type Summary } from './figures.ts';

const run = (rps: number, p99: number, extra: Partial<Figures> = {}): Figures => ({
  rps,
  p50: p99 / 2,
  p99,
  failed: 0,
  cpuUs: { game: 1_000_000 / rps },
  ...extra,
});

describe('summarize', () => {
  it('takes each figure’s median over the rounds on its own, adds the failures and keeps the range', () => {
    const summary = summarize([
      run(600, 40, { failed: 1, cpuUs: { game: 700, wallet: 500 }, atQuota: { game: 0.9 }, diskKiB: { game: 20 } }),
      run(500, 90, {
        cpuUs: { game: 800, wallet: 450, loader: 30 },
        atQuota: { game: 0.8, wallet: 0.1 },
        diskKiB: { game: 22, wallet: 17 },
      }),
      run(700, 35, { failed: 2, cpuUs: { game: 750, wallet: 400 }, atQuota: { game: 0.95, wallet: 0.05 } }),
    ]);
    expect(summary).toEqual({
      rps: 600,
      p50: 20,
      p99: 40,
      failed: 3,
      cpuUs: { game: 750, wallet: 450, loader: 30 },
      diskKiB: { game: 22, wallet: 17 },
      atQuota: { game: 0.9, wallet: 0.1 },
      range: [500, 700],
    });
  });

  it('has no at-quota or disk figures where no round had them, and refuses no rounds at all', () => {
    expect(summarize([run(100, 5)])).not.toHaveProperty('atQuota');
    expect(summarize([run(100, 5)])).not.toHaveProperty('diskKiB');
    expect(() => summarize([])).toThrow(/no rounds/);
  });
});

describe('targetVerdicts', () => {
  const summary = (rps: number, p99: number): Summary => ({ ...run(rps, p99), range: [rps, rps] });

  it('compares the wallet with the embedded ledger at each connection count, and the 5 ms p99 at 16', () => {
    const summaries = new Map([
      [runKey('embedded', 16), summary(2_800, 20)],
      [runKey('wallet', 16), summary(665, 44)],
      [runKey('wallet + 5 ms', 16), summary(577, 39.19)],
      [runKey('embedded', 64), summary(4_000, 26)],
      [runKey('wallet', 64), summary(2_100, 130)],
    ]);
    expect(targetVerdicts(summaries)).toEqual([
      'wallet plays/s ÷ embedded (target ≥ 0.5 ×): **0.24 ×** at 16 connections (not met), **0.53 ×** at 64 connections (met)',
      'p99 with 5 ms added to each wallet call at 16 connections (target ≤ 40 ms): **39 ms** (met)',
    ]);
  });

  it('says nothing of a target whose rows were not measured', () => {
    expect(targetVerdicts(new Map([[runKey('wallet + 5 ms', 16), summary(300, 41)]]))).toEqual([
      'p99 with 5 ms added to each wallet call at 16 connections (target ≤ 40 ms): **41 ms** (not met)',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { runKey, type Summary } from './figures.ts';
import { loadedGroups, machinesRow, walletQuotaLine } from './machinesSection.ts';

const QUOTAS = { game: 0.5, wallet: 0.8, loader: 0.4 };

const summary = (rps: number, extra: Partial<Summary> = {}): Summary => ({
  rps,
  p50: 4.36,
  p99: 19.8,
  failed: 0,
  cpuUs: { game: 740, wallet: 540, loader: 40 },
  atQuota: { game: 0.86, wallet: 0.03, loader: 0.06 },
  range: [rps - 10, rps + 10],
  ...extra,
});

describe('the wallet --machines table', () => {
  it('takes only the groups a mode loads, with the cores each used', () => {
    const f = summary(675);
    expect(loadedGroups('embedded', f, QUOTAS).map((g) => g.whose)).toEqual(['the game server', 'the load generator']);
    expect(loadedGroups('control: wallet alone', f, QUOTAS).map((g) => g.whose)).toEqual([
      'the wallet',
      'the load generator',
    ]);
    const [game] = loadedGroups('wallet', f, QUOTAS);
    expect(game).toEqual({
      whose: 'the game server',
      atQuota: 0.86,
      used: { cores: expect.closeTo(0.4995, 9), quotaCores: 0.5 },
    });
  });

  it('writes a row with the ratio to embedded, the groups’ figures and the limit', () => {
    expect(machinesRow('wallet', 16, summary(675), summary(2_883), QUOTAS)).toBe(
      '| wallet | 16 | 675 (665–685) | 0.23 × | 4.4 | 20 | 0 | 740 | 540 | 40 | 86 % | 3 % | 6 % | ' +
        "the game server's CPU (at its quota in 86 % of the periods, 0.50 of its 0.5 core used) |",
    );
    expect(machinesRow('embedded', 64, summary(4_400), summary(4_400), QUOTAS)).toMatch(
      /^\| embedded \| 64 \| 4,400 \(4,390–4,410\) \| 1\.00 × \| 4\.4 \| 20 \| 0 \| 740 \| — \| 40 \| 86 % \| — \| 6 % \| /,
    );
  });

  it('says whether the wallet’s quota held the plays back', () => {
    const calm = new Map([[runKey('wallet', 16), summary(675)]]);
    expect(walletQuotaLine(calm, QUOTAS)).toBe(
      "The wallet's group (the operator's machine, 0.8 core): at its quota in at most 3 % of the periods of the plays " +
        'through it, using at most 0.36 core — it did not hold the plays back.',
    );
    const bound = new Map([
      [runKey('wallet', 16), summary(675)],
      [runKey('wallet', 64), summary(1_450, { atQuota: { game: 0.3, wallet: 0.7, loader: 0 } })],
    ]);
    expect(walletQuotaLine(bound, QUOTAS)).toMatch(/at most 70 % .* 0\.78 core — \*\*it hit its quota\*\*/);
    expect(walletQuotaLine(new Map(), QUOTAS)).toBe('');
  });
});

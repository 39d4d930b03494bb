import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliUsageError, runCli } from './cli.ts';
import { tempWalletDir } from './testing.ts';

const dir = tempWalletDir();
const env = { WALLET_DB: path.join(dir, 'cli.sqlite') };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { code: number; lines: string[] } {
  const lines: string[] = [];
  const code = runCli(args, env, (line) => lines.push(line));
  return { code, lines };
}

describe('npm run wallet -- <command>', () => {
  it('creates, funds, blocks, limits, shows and lists accounts, and checks the books', () => {
    const created = run('create', 'alice', '--balance', '10000', '--daily-limit', '2000');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.lines[0]!)).toMatchObject({
      playerId: 'alice',
      balanceCents: 10_000,
      dailyStakeLimitCents: 2000,
    });
    expect(run('create', 'alice').lines[0]).toMatch(/^ACCOUNT_EXISTS/);
    expect(run('create', 'bob', '--blocked').code).toBe(0);
    expect(JSON.parse(run('deposit', 'bob', '500').lines[0]!)).toMatchObject({ balanceCents: 500, blocked: true });
    expect(run('withdraw', 'bob', '600')).toMatchObject({
      code: 1,
      lines: [expect.stringMatching(/^INSUFFICIENT_FUNDS/)],
    });
    expect(JSON.parse(run('withdraw', 'bob', '200').lines[0]!)).toMatchObject({ balanceCents: 300 });
    expect(JSON.parse(run('unblock', 'bob').lines[0]!)).toMatchObject({ blocked: false });
    expect(JSON.parse(run('block', 'bob').lines[0]!)).toMatchObject({ blocked: true });
    expect(JSON.parse(run('limit', 'alice', 'none').lines[0]!)).toMatchObject({ dailyStakeLimitCents: null });
    expect(JSON.parse(run('limit', 'alice', '500').lines[0]!)).toMatchObject({ dailyStakeLimitCents: 500 });
    expect(JSON.parse(run('show', 'alice').lines[0]!)).toMatchObject({ balanceCents: 10_000, stakedTodayCents: 0 });
    expect(run('show', 'carol')).toMatchObject({ code: 1, lines: [expect.stringMatching(/^UNKNOWN_PLAYER/)] });
    expect(run('list').lines.map((l) => JSON.parse(l).playerId)).toEqual(['alice', 'bob']);
    const statement = run('statement', '--from', '2000-01-01', '--to', '2100-01-01').lines.map((l) => JSON.parse(l));
    expect(statement.map((t) => [t.kind, t.playerId, t.movedCents])).toEqual([
      ['deposit', 'alice', 10_000],
      ['deposit', 'bob', 500],
      ['withdrawal', 'bob', -200],
    ]);
    expect(run('check')).toEqual({ code: 0, lines: ['wallet books OK'] });
  });

  it('refuses bad commands with a usage error', () => {
    expect(() => run('fly')).toThrow(CliUsageError);
    expect(() => run()).toThrow(/no command/);
    expect(() => run('create', '../x')).toThrow(/player id/);
    expect(() => run('deposit', 'alice', '1.5')).toThrow(/whole cents/);
    expect(() => run('deposit', 'alice', '0')).toThrow(/above 0/);
    expect(() => run('statement', '--from', 'yesterday', '--to', '2100-01-01')).toThrow(/--from must be/);
    expect(() => run('create', 'x', '--colour', 'red')).toThrow(CliUsageError);
  });
});

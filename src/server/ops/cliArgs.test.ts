import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, USAGE } from './cli.ts';
import { tempDataDir } from '../testing/harness.ts';

const dir = tempDataDir();
const dataDir = path.join(dir, 'data');
const saved = { DATA_DIR: process.env.DATA_DIR, cwd: process.cwd() };

beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  process.chdir(dir);
});
afterAll(() => {
  process.chdir(saved.cwd);
  if (saved.DATA_DIR === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved.DATA_DIR;
  fs.rmSync(dir, { recursive: true, force: true });
});

async function ops(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const COMMANDS = [
  ['load'],
  ['audit-ledger'],
  ['launch-token'],
  ['wallet-pending'],
  ['reconcile'],
  ['sales'],
  ['sales', 'close'],
  ['report'],
  ['supply'],
  ['backup'],
  ['blocks', 'close'],
  ['demo', 'purge'],
];

describe('npm run ops: arguments', () => {
  it('refuses an unknown flag with exit 2 and the usage, before opening anything', async () => {
    for (const args of [
      ['sales', 'close', '--mesage', 'back soon'],
      ['report', '--jsno'],
      ['backup', '--out', 'f'],
      ['wallet-pending', '--jsn'],
      ['supply', '--day', '3'],
      ['audit-ledger', '--fix'],
      ['demo', 'purge', '--dry'],
    ]) {
      const result = await ops(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^error: .*Unknown option '--/);
      expect(result.stderr).toContain(USAGE);
      expect(result.stdout).toBe('');
    }
    // Nothing was opened, created or written: no database, no file named after a flag.
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a flag without its value, and a stray argument', async () => {
    for (const args of [
      ['sales', 'close', '--message'],
      ['reconcile', '--from', '2026-01-01T00:00:00Z', '--to'],
      ['supply', '--days'],
      ['report', 'extra'],
      ['backup', 'one', 'two'],
      ['sales', 'close', 'now'],
      ['blocks', 'close', '0123456789abcdef', 'more'],
      ['audit-ledger', 'all'],
    ]) {
      const result = await ops(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^error: /);
      expect(result.stderr).toContain(USAGE);
    }
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('answers --help for itself and every command: the usage on stdout, exit 0, nothing done', async () => {
    for (const args of [['--help'], ['-h'], ...COMMANDS.map((command) => [...command, '--help'])]) {
      const result = await ops(...args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).toBe(USAGE);
      expect(result.stderr).toBe('');
    }
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('with no command, exits 2 with the usage on stderr', async () => {
    const result = await ops();
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain(USAGE);
  });
});

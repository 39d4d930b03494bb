import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SYMBOLS, evaluate, type Unit } from '../rules/index.ts';
import { assembleBlock } from './block.ts';
import { USAGE, main } from './commands.ts';
import { commitBlock } from './commitment.ts';
import { CSV_HEADER } from './export.ts';
import { UNIT_BYTES, readBlockFile } from './index.ts';

let out: string[];
let err: string[];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

const dir = () => mkdtempSync(join(tmpdir(), 'spincake-cli-'));

/** Runs a command in-process; returns the exit code. */
const run = (...argv: string[]) => main(argv);

/** Parses one audit-export CSV line back into a unit, by the spec alone. */
function parseCsvLine(line: string): { position: number; lot: number; jeu1: number; jeu2: number; unit: Unit } {
  const [position, stake, lot, jeu1, jeu2, ...wheels] = line.split(',');
  expect(wheels).toHaveLength(4);
  const unit = {
    stakeCents: Number(stake),
    wheels: wheels.map((w) => {
      const parts = w.split('|');
      expect(parts).toHaveLength(6);
      expect(parts.filter((p) => p.startsWith('*'))).toHaveLength(1);
      return {
        stop: parts.findIndex((p) => p.startsWith('*')),
        segments: parts.map((p) => {
          const [symbol, points] = p.replace('*', '').split(':');
          expect(SYMBOLS).toContain(symbol);
          return { symbol: symbol as Unit['wheels'][0]['segments'][0]['symbol'], points: Number(points) };
        }),
      };
    }),
  } as Unit;
  return { position: Number(position), lot: Number(lot), jeu1: Number(jeu1), jeu2: Number(jeu2), unit };
}

describe('emission commands', () => {
  it('generate → audit → export: a block an outside auditor can recompute', async () => {
    const d = dir();
    const file = join(d, 'b.spincake');
    expect(await run('generate', '--stake', '3', '--seed', 'beef', '--count', '3000', '--out', file)).toBe(0);
    expect(out.join('\n')).toContain('stake €3, 3,000 units, seed beef');
    expect(out.join('\n')).toContain(`commitment: root ${commitBlock(readBlockFile(file)).root}, seed hash `);
    expect(await run('audit', file)).toBe(0);
    expect(out.join('\n')).toMatch(/OK: .* passes the audit/);
    expect(out.join('\n')).toContain('the lot table and payout are not checked');

    const csv = join(d, 'b.csv');
    expect(await run('export', file, '--csv', csv, '--from', '100', '--count', '400')).toBe(0);
    const text = readFileSync(csv, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines).toHaveLength(401);
    const block = readBlockFile(file);
    lines.slice(1).forEach((line, k) => {
      const row = parseCsvLine(line);
      expect(row.position).toBe(100 + k);
      expect(row.unit).toEqual(block.unitAt(100 + k));
      const e = evaluate(row.unit);
      expect([row.lot, row.jeu1, row.jeu2]).toEqual([e.winCents, e.jeu1WinCents, e.jeu2WinCents]);
    });
    expect(await run('export', file, '--csv', csv)).toBe(0);
    expect(readFileSync(csv, 'utf8').split('\n')).toHaveLength(3_002);
    expect(readdirSync(d).sort()).toEqual(['b.csv', 'b.csv.commitment.json', 'b.spincake']);
    expect(JSON.parse(readFileSync(`${csv}.commitment.json`, 'utf8'))).toEqual({
      blockId: block.id,
      stakeCents: 300,
      count: 3_000,
      root: commitBlock(block).root,
      seedHash: commitBlock(block).seedHash,
    });
  });

  it('gives the same file for the same seed', async () => {
    const d = dir();
    for (const name of ['a', 'b'])
      expect(await run('generate', '--stake', '5', '--seed', '0102', '--count', '500', '--out', join(d, name))).toBe(0);
    expect(readFileSync(join(d, 'a')).equals(readFileSync(join(d, 'b')))).toBe(true);
  });

  describe('refuses bad input with one line, a non-zero exit and no file', () => {
    const d = dir();
    const good = join(d, 'good.spincake');
    beforeEach(async () => {
      if (!existsSync(good)) expect(await run('generate', '--stake', '1', '--count', '50', '--out', good)).toBe(0);
      out = [];
      err = [];
    });
    const bytes = () => readFileSync(good);
    const write = (name: string, data: Uint8Array | string) => {
      const path = join(d, name);
      writeFileSync(path, data);
      return path;
    };
    const cases: [string, () => string[], RegExp][] = [
      ['an unknown stake', () => ['generate', '--stake', '4', '--out', join(d, 'x1')], /unknown stake "4"/],
      ['a stake in cents', () => ['generate', '--stake', '100', '--out', join(d, 'x2')], /unknown stake "100"/],
      ['a bad seed', () => ['generate', '--stake', '1', '--seed', 'xyz', '--out', join(d, 'x3')], /bad seed/],
      ['an odd-length seed', () => ['generate', '--stake', '1', '--seed', 'abc', '--out', join(d, 'x4')], /bad seed/],
      [
        'a missing directory',
        () => ['generate', '--stake', '1', '--out', join(d, 'no', 'x')],
        /cannot write .* not a writable directory/,
      ],
      ['a directory as output', () => ['generate', '--stake', '1', '--out', d], /cannot write .*: it is a directory/],
      ['a missing --out', () => ['generate', '--stake', '1'], /--out is required/],
      ['a bad count', () => ['generate', '--stake', '1', '--count', '0', '--out', join(d, 'x5')], /count must be/],
      [
        'an unknown option',
        () => ['generate', '--stake', '1', '--sed', 'ab', '--out', join(d, 'x6')],
        /Unknown option '--sed'/,
      ],
      ['an unknown command', () => ['burn'], /unknown command "burn"/],
      ['a missing file', () => ['audit', join(d, 'nope')], /cannot read .*: no such file/],
      ['a foreign file', () => ['audit', write('foreign', '%PDF-1.7 not a block')], /not a SPINCAKE block file/],
      ['a truncated file', () => ['audit', write('short', bytes().subarray(0, bytes().length - 7))], /truncated/],
      [
        'a corrupted file',
        () => {
          const b = bytes();
          b[200]! ^= 0x40;
          return ['audit', write('flipped', b)];
        },
        /checksum mismatch/,
      ],
      ['an export of a corrupted file', () => ['export', join(d, 'short'), '--csv', join(d, 'x7.csv')], /truncated/],
      [
        'a range past the end',
        () => ['export', good, '--csv', join(d, 'x8.csv'), '--from', '40', '--count', '11'],
        /bad range/,
      ],
      ['a start past the end', () => ['export', good, '--csv', join(d, 'x9.csv'), '--from', '50'], /bad range/],
      [
        'a negative start',
        () => ['export', good, '--csv', join(d, 'x10.csv'), '--from', '-1'],
        /'--from' argument is ambiguous/,
      ],
      ['a non-numeric count', () => ['export', good, '--csv', join(d, 'x11.csv'), '--count', 'ten'], /whole number/],
      ['an export to a missing directory', () => ['export', good, '--csv', join(d, 'no', 'x.csv')], /cannot write/],
    ];
    it.each(cases)('%s', async (_name, args, pattern) => {
      const before = readdirSync(d).sort();
      const argv = args();
      const made = readdirSync(d).sort();
      expect(await run(...argv)).not.toBe(0);
      expect(err[0]).toMatch(/^emission: /);
      expect(err[0]).toMatch(pattern);
      expect(err[0]).not.toContain('\n');
      expect(readdirSync(d).sort()).toEqual(made);
      expect(made.length - before.length).toBeLessThanOrEqual(1);
    });
  });

  it('fails the audit naming the first bad positions', async () => {
    const d = dir();
    const file = join(d, 'b');
    expect(await run('generate', '--stake', '2', '--seed', '77', '--count', '1000', '--out', file)).toBe(0);
    const block = readBlockFile(file);
    const body = Uint8Array.from(block.body);
    for (const p of [17, 400]) body[p * UNIT_BYTES + 25] = (body[p * UNIT_BYTES + 25]! + 0x10) & 0xff; // another declared pair
    writeFileSync(file, assembleBlock(200, Buffer.from('77', 'hex'), body).fileBytes());
    expect(await run('audit', file)).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/audit FAILED .*: 2 problem\(s\); first bad positions: 17, 400$/);
  });
});

describe('the emission commands’ arguments', () => {
  it('refuses an unknown flag, a missing value or a stray argument: exit 2, the usage on stderr, no file', async () => {
    const d = dir();
    for (const args of [
      ['generate', '--stake', '1', '--count', '10', '--ot', join(d, 'a')],
      ['generate', '--stake', '1', '--count', '10', '--out'],
      ['generate', '--stake', '1', '--count', '10', '--out', join(d, 'b'), 'extra'],
      ['generate', '--stake', '1', '--stake', '2', '--count', '10', '--out', join(d, 'c')],
      ['audit', join(d, 'a'), '--fast'],
      ['audit', join(d, 'a'), join(d, 'b')],
      ['export', join(d, 'a'), '--csv', join(d, 'x.csv'), '--form', '3'],
      ['export', join(d, 'a'), '--csv'],
    ]) {
      out = [];
      err = [];
      expect(await run(...args), args.join(' ')).toBe(2);
      expect(err[0], args.join(' ')).toMatch(/^emission: /);
      expect(err[1]).toBe(USAGE);
      expect(out).toEqual([]);
    }
    expect(readdirSync(d)).toEqual([]);
  });

  it('answers --help for itself and each command: the usage on stdout, exit 0, nothing done', async () => {
    const d = dir();
    for (const args of [
      ['--help'],
      ['generate', '--stake', '1', '--count', '10', '--out', join(d, 'a'), '--help'],
      ['audit', '--help'],
      ['export', '--help'],
      ['export', join(d, 'a'), '-h'],
    ]) {
      out = [];
      err = [];
      expect(await run(...args), args.join(' ')).toBe(0);
      expect(out).toEqual([USAGE]);
      expect(err).toEqual([]);
    }
    expect(readdirSync(d)).toEqual([]);
  });
});

describe('the emission CLI as a process', () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/emission/cli.ts', ...args], { encoding: 'utf8' });

  it('generates, audits and refuses a foreign file through `npm run emission`’s entry point', () => {
    const d = dir();
    const file = join(d, 'b.spincake');
    const gen = cli('generate', '--stake', '1', '--seed', 'aa', '--count', '200', '--out', file);
    expect(gen.stderr).toBe(''); // not a terminal: no progress
    expect(gen.status).toBe(0);
    const audit = cli('audit', file);
    expect(audit.status).toBe(0);
    expect(audit.stdout).toContain('OK:');
    const bad = cli('audit', join(d, '..'));
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasScript)('shows progress on a terminal (run under `script`, a pseudo-terminal)', () => {
    const file = join(dir(), 'b.spincake');
    const run = spawnSync(
      'script',
      [
        '-qec',
        `"${process.execPath}" --import tsx src/emission/cli.ts generate --stake 1 --count 140000 --out ${file}`,
        '/dev/null',
      ],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\rgenerating… 46 %\rgenerating… 93 %\rgenerating… 100 %/);
    expect(existsSync(file)).toBe(true);
  });
});

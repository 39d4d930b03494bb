/**
 * The emission commands: generate, audit and export blocks. `main` returns the exit
 * code; every failure is one line on stderr (plus the usage for a mistaken call) and
 * nothing is half-written.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BLOCK_SIZE, STAKES_CENTS, blockLotTable, formatCents, isStakeCents, type StakeCents } from '../rules/index.ts';
import { auditBlock, type AuditReport } from './audit.ts';
import { type Block } from './block.ts';
import { commitBlock } from './commitment.ts';
import { exportCsv, exportRange } from './export.ts';
import { readBlockFile, writeAll, writeBlockFile, writeFileAtomically } from './file.ts';
import { generateBlock } from './generate.ts';
import { blockPairCounts } from './split.ts';
import { PAIR_CODES } from './codes.ts';

const USAGE = `usage:
  npm run emission -- generate --stake 1|2|3|5 [--seed HEX] --out FILE
  npm run emission -- audit FILE
  npm run emission -- export FILE --csv OUT [--from N] [--count M]
(generate also takes --count N, for tests only: the first N units of the block)`;

/** A mistake in how the command was called: exit 2 with the usage. */
class UsageError extends Error {}

interface Parsed {
  positional: string[];
  options: Map<string, string>;
}

function parseArgs(args: string[], allowed: readonly string[]): Parsed {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
    if (options.has(name)) throw new UsageError(`--${name} is given twice`);
    const value = inline ?? args[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) {
      throw new UsageError(`--${name} needs a value`);
    }
    options.set(name, value);
  }
  return { positional, options };
}

function required(parsed: Parsed, name: string): string {
  const value = parsed.options.get(name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

function integerOption(parsed: Parsed, name: string): number | undefined {
  const text = parsed.options.get(name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new RangeError(`--${name} must be a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}

function onlyFile(parsed: Parsed, command: string): string {
  if (parsed.positional.length !== 1) throw new UsageError(`${command} takes exactly one FILE`);
  return parsed.positional[0]!;
}

function parseStake(text: string): StakeCents {
  const cents = /^\d+$/.test(text) ? Number(text) * 100 : NaN;
  if (!isStakeCents(cents)) {
    throw new RangeError(
      `unknown stake ${JSON.stringify(text)}: use ${STAKES_CENTS.map((s) => s / 100).join(', ')} (euros)`,
    );
  }
  return cents;
}

/** Fails before any work when the output could not be written (missing or read-only directory, a directory in the way). */
function checkWritable(path: string): void {
  const dir = dirname(resolve(path));
  try {
    if (!statSync(dir).isDirectory()) throw new Error();
    accessSync(dir, constants.W_OK);
  } catch {
    throw new RangeError(`cannot write ${path}: ${dir} is not a writable directory`);
  }
  try {
    if (statSync(path).isDirectory()) throw new RangeError(`cannot write ${path}: it is a directory`);
  } catch (error) {
    if (error instanceof RangeError) throw error;
  }
}

const euros = (cents: number) => formatCents(cents, 'en');
const grouped = (n: number) => n.toLocaleString('en-US');

function describeBlock(block: Block): string {
  const h = block.header;
  return `block ${block.id}: stake ${euros(h.stakeCents)}, ${grouped(h.count)} units, seed ${h.seedHex}`;
}

async function generate(args: string[]): Promise<number> {
  const parsed = parseArgs(args, ['stake', 'seed', 'out', 'count']);
  if (parsed.positional.length > 0) throw new UsageError(`unexpected argument ${parsed.positional[0]}`);
  const stakeCents = parseStake(required(parsed, 'stake'));
  const out = required(parsed, 'out');
  const seedHex = parsed.options.get('seed');
  const count = integerOption(parsed, 'count') ?? BLOCK_SIZE;
  checkWritable(out);
  const tty = process.stderr.isTTY === true;
  const block = generateBlock({
    stakeCents,
    count,
    ...(seedHex === undefined ? {} : { seedHex }),
    ...(tty
      ? {
          onProgress: (done: number, total: number) =>
            process.stderr.write(`\rgenerating… ${Math.floor((100 * done) / total)} %`),
        }
      : {}),
  });
  if (tty) process.stderr.write('\r\x1b[K');
  await writeBlockFile(out, block);
  console.log(`wrote ${out}: ${describeBlock(block)}`);
  console.log(commitmentLine(block));
  return 0;
}

/** The block's commitment (docs/fairness.md): what a server publishes before the first sale. */
function commitmentLine(block: Block): string {
  const { root, seedHash } = commitBlock(block);
  return `commitment: root ${root}, seed hash ${seedHash}`;
}

function reportTable(report: AuditReport, block: Block): string[] {
  const { stakeCents, count } = block.header;
  const full = report.fullBlock;
  const lines = [describeBlock(block), '', 'lot             units    Article 3'];
  for (const row of blockLotTable(stakeCents)) {
    const found = report.lotCounts.get(row.lotCents) ?? 0;
    const mark = full && found !== row.count ? '  ✗' : '';
    lines.push(
      `${euros(row.lotCents).padStart(10)}  ${grouped(found).padStart(9)}  ${full ? grouped(row.count).padStart(11) : '          –'}${mark}`,
    );
  }
  for (const [lot, n] of report.lotCounts) {
    if (!blockLotTable(stakeCents).some((r) => r.lotCents === lot))
      lines.push(`${euros(lot).padStart(10)}  ${grouped(n).padStart(9)}            0  ✗`);
  }
  lines.push('', 'pair            units    split');
  const split = blockPairCounts();
  PAIR_CODES.forEach((key, code) => {
    const found = report.pairCounts.get(key) ?? 0;
    const mark = full && found !== split[code] ? '  ✗' : '';
    lines.push(
      `${key.padEnd(12)}  ${grouped(found).padStart(9)}  ${full ? grouped(split[code]!).padStart(7) : '      –'}${mark}`,
    );
  });
  const sales = count * stakeCents;
  const rate = ((report.payoutCents * 100) / sales).toFixed(2);
  lines.push(
    '',
    `payout ${euros(report.payoutCents)} of ${euros(sales)} sales: ${rate} %${full ? ' (Article 3: 70.00 %)' : ''}`,
  );
  lines.push(
    `off-cursor segments: ${grouped(report.offCursorBells)} bells, ${grouped(report.offCursorTopPoints)} at 500 points`,
  );
  if (!full)
    lines.push(`only ${grouped(count)} of ${grouped(BLOCK_SIZE)} units: the lot table and payout are not checked`);
  return lines;
}

function audit(args: string[]): number {
  const file = onlyFile(parseArgs(args, []), 'audit');
  const block = readBlockFile(file);
  const report = auditBlock(block);
  console.log(reportTable(report, block).join('\n'));
  console.log(commitmentLine(block));
  if (report.ok) {
    console.log(`OK: ${file} passes the audit`);
    return 0;
  }
  const units = report.problems.filter((p) => p.position >= 0);
  const first = units.slice(0, 10).map((p) => p.position);
  for (const p of report.problems.slice(0, 20))
    console.log(`  ${p.position < 0 ? 'block' : `unit ${p.position}`}: ${p.message}`);
  console.error(
    `emission: audit FAILED for ${file}: ${report.problemCount} problem(s)` +
      (first.length > 0 ? `; first bad positions: ${first.join(', ')}` : `; ${report.problems[0]?.message ?? ''}`),
  );
  return 1;
}

function exportCommand(args: string[]): number {
  const parsed = parseArgs(args, ['csv', 'from', 'count']);
  const file = onlyFile(parsed, 'export');
  const out = required(parsed, 'csv');
  const from = integerOption(parsed, 'from');
  const count = integerOption(parsed, 'count');
  checkWritable(out);
  const block = readBlockFile(file);
  const range = exportRange(block, from ?? 0, count);
  exportCsv(block, out, range);
  // The CSV's columns are fixed by the auditors' spec: the commitment goes beside it.
  const { root, seedHash } = commitBlock(block);
  const commitment = {
    blockId: block.id,
    stakeCents: block.header.stakeCents,
    count: block.header.count,
    root,
    seedHash,
  };
  writeFileAtomically(`${out}.commitment.json`, (fd) =>
    writeAll(fd, Buffer.from(JSON.stringify(commitment, null, 2) + '\n')),
  );
  console.log(`wrote ${out}: units ${range.from}–${range.from + range.count - 1} of ${describeBlock(block)}`);
  console.log(`wrote ${out}.commitment.json: root ${root}`);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'generate':
        return await generate(rest);
      case 'audit':
        return audit(rest);
      case 'export':
        return exportCommand(rest);
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    console.error(`emission: ${message}`);
    if (error instanceof UsageError) {
      console.error(USAGE);
      return 2;
    }
    return 1;
  }
}

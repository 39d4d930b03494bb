/**
 * The emission commands: generate, audit and export blocks. `main` returns the exit
 * code; every failure is one line on stderr (plus the usage for a mistaken call) and
 * nothing is half-written.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { HELP_OPTION, UsageError, parseCommandLine, runCommandLine } from '../common/commandLine.ts';
import { BLOCK_SIZE, STAKES_CENTS, blockLotTable, formatCents, isStakeCents, type StakeCents } from '../rules/index.ts';
import { auditBlock, type AuditReport } from './audit.ts';
import { type Block } from './block.ts';
import { commitBlock } from './commitment.ts';
import { exportCsv, exportRange } from './export.ts';
import { readBlockFile, writeAll, writeBlockFile, writeFileAtomically } from './file.ts';
import { generateBlock } from './generate.ts';
import { blockPairCounts } from './split.ts';
import { PAIR_CODES } from './codes.ts';

export const USAGE = `usage:
  npm run emission -- generate --stake 1|2|3|5 [--seed HEX] --out FILE
  npm run emission -- audit FILE
  npm run emission -- export FILE --csv OUT [--from N] [--count M]
(generate also takes --count N, for tests only: the first N units of the block; every command takes --help)`;

/** A command's arguments, strictly: only `options` (each once) and --help, exactly `positionals` of them. */
function commandArgs<const Options extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  options: Options,
  positionals: number,
) {
  const parsed = parseCommandLine(() =>
    parseArgs({ args, options: { ...HELP_OPTION, ...options }, allowPositionals: true, strict: true, tokens: true }),
  );
  for (const token of parsed.tokens) {
    if (token.kind === 'option' && parsed.tokens.filter((t) => t.kind === 'option' && t.name === token.name).length > 1)
      throw new UsageError(`--${token.name} is given twice`);
  }
  if (parsed.positionals.length > positionals)
    throw new UsageError(`unexpected argument ${parsed.positionals[positionals]}`);
  if (parsed.positionals.length < positionals) throw new UsageError(`${command} takes exactly one FILE`);
  return parsed;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

function integerOption(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new RangeError(`--${name} must be a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
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
  const { values } = commandArgs(
    'generate',
    args,
    { stake: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, count: { type: 'string' } },
    0,
  );
  const stakeCents = parseStake(required(values.stake, 'stake'));
  const out = required(values.out, 'out');
  const seedHex = values.seed;
  const count = integerOption(values.count, 'count') ?? BLOCK_SIZE;
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
  const [file] = commandArgs('audit', args, {}, 1).positionals as [string];
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
  const { positionals, values } = commandArgs(
    'export',
    args,
    { csv: { type: 'string' }, from: { type: 'string' }, count: { type: 'string' } },
    1,
  );
  const file = positionals[0]!;
  const out = required(values.csv, 'csv');
  const from = integerOption(values.from, 'from');
  const count = integerOption(values.count, 'count');
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

/**
 * `npm run emission -- …`: the exit code. A mistaken call (an unknown command or flag, a
 * missing value, a stray argument) exits 2 with the usage on stderr; `--help` prints it on
 * stdout; any other failure is one line on stderr and exit 1.
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    return await runCommandLine('emission', USAGE, () => {
      switch (command) {
        case 'generate':
          return generate(rest);
        case 'audit':
          return audit(rest);
        case 'export':
          return exportCommand(rest);
        case '--help':
        case '-h':
        case 'help':
          console.log(USAGE);
          return 0;
        default:
          throw new UsageError(
            command === undefined ? 'no command given' : `unknown command ${JSON.stringify(command)}`,
          );
      }
    });
  } catch (error) {
    console.error(`emission: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    return 1;
  }
}

/**
 * `npm run bench:proofs`: the commitment of one full block (every leaf salted and hashed,
 * then the tree), against a baseline revision's (`--baseline REV` or `BENCH_BASELINE=REV`;
 * `main` by default) measured in the same process, interleaved: its tree from `git
 * archive` beside this checkout, its `commitBlock` imported from there. This checkout's
 * commitment is timed in this thread (`commitBlock`, as the CLI commands run it) and in
 * worker threads (`CommitmentWorkers`, as the server runs it; the threads' start timed
 * apart). Also the reading of a commitment kept beside its block (a server's start), a
 * proof's making and checking time and its size. Figures go into the `## Proofs` section
 * of BENCHMARKS.md.
 */
import fs from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CommitmentWorkers,
  commitBlock,
  generateBlock,
  readCommitmentFile,
  writeCommitmentFile,
  type Block,
} from '../src/emission/index.ts';
import { verifyTicketProof, type TicketProof } from '../src/proofs/index.ts';
import { nodeSha256 } from '../src/transparency/nodeSha256.ts';
import { BLOCK_SIZE } from '../src/rules/index.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';
import { ticketProofOf } from './ticketProof.ts';
import { cleanUp, materialise, tempDir } from './serverTree.ts';

const RUNS = 7;
const PROOFS = 2_000;

function baselineArgument(): string {
  const at = process.argv.indexOf('--baseline');
  if (at >= 0 && process.argv[at + 1]) return process.argv[at + 1]!;
  return process.env.BENCH_BASELINE || 'main';
}

interface Sample {
  ms: number;
  cpuMs: number;
}

/** Wall and CPU time (every thread of the process: the workers' too). */
async function timed(work: () => unknown): Promise<Sample> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function bench(): Promise<void> {
  const rev = baselineArgument();
  const tree = materialise(rev);
  const baseline = (await import(pathToFileURL(path.join(tree.root, 'src/emission/index.ts')).href)) as {
    commitBlock: (block: Block) => { root: string };
  };
  const loadBefore = loadavg()[0]!;
  const block = generateBlock({ stakeCents: 100, seedHex: 'b0b0' });
  let commitment = commitBlock(block); // warms the JIT up
  if (baseline.commitBlock(block).root !== commitment.root) {
    throw new Error(`the baseline ${tree.label} commits this block to another root: not the same format`);
  }
  const workers = new CommitmentWorkers({ keepAlive: true });
  const start = await timed(() => workers.commit(block)); // the threads start (tsx loads their modules)
  const samples = { baseline: [] as Sample[], thread: [] as Sample[], workers: [] as Sample[] };
  for (let run = 0; run < RUNS; run++) {
    // Interleaved, so that load on the shared machine falls on all three alike.
    samples.baseline.push(await timed(() => baseline.commitBlock(block)));
    samples.thread.push(await timed(() => (commitment = commitBlock(block))));
    samples.workers.push(
      await timed(async () => {
        if ((await workers.commit(block)).root !== commitment.root) throw new Error('the workers commit another root');
      }),
    );
    console.error(`run ${run + 1}/${RUNS}: workers ${fmt(samples.workers.at(-1)!.ms)} ms`);
  }
  await workers.close();
  const kept = path.join(tempDir('spincake-bench-proofs-'), 'block');
  writeCommitmentFile(kept, block.id, commitment);
  const reading = await timed(() => {
    if (readCommitmentFile(kept, block.id, BLOCK_SIZE)?.root !== commitment.root) throw new Error('kept commitment');
  });
  fs.rmSync(`${kept}.commitment`);

  const positions = Array.from({ length: PROOFS }, (_, i) => Math.floor((i * BLOCK_SIZE) / PROOFS) + (i % 7));
  let tickets: TicketProof[] = [];
  const making = await timed(() => (tickets = positions.map((p) => ticketProofOf(block, commitment, p))));
  const checking = await timed(() => {
    for (const t of tickets)
      if (!verifyTicketProof(t, commitment.root, nodeSha256).ok) throw new Error('a proof fails');
  });
  const sizes = tickets.map((t) => JSON.stringify(t).length);
  const pathHashes = tickets.map((t) => t.path.flat().length);
  const loadAfter = loadavg()[0]!;

  const ms = (s: Sample[]) => median(s.map((x) => x.ms));
  const cpu = (s: Sample[]) => median(s.map((x) => x.cpuMs));
  const row = (label: string, s: Sample[]) =>
    `| ${label} | ${fmt(ms(s))} | ${fmt(cpu(s))} | ${fmt(ms(s) / ms(samples.baseline), 2)}× | ${fmt(cpu(s) / cpu(samples.baseline), 2)}× |`;
  const workersMs = ms(samples.workers);
  const section = [
    '## Proofs',
    '',
    `\`npm run bench:proofs\` (baseline \`${rev}\`), ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'},`,
    `Node ${process.version}. One full block of ${fmt(BLOCK_SIZE)} units at 1 €, median of ${RUNS} interleaved runs in one`,
    `process. Load average during the run: ${fmt(loadBefore, 1)} → ${fmt(loadAfter, 1)} (the machine is shared: wall`,
    'times are inflated by it; CPU times much less, the ratios least).',
    '',
    `Baseline: revision ${tree.label}'s \`commitBlock\`, in the same process. CPU: every thread of the process.`,
    '',
    '| commitment of 1,000,000 units | wall ms | CPU ms | wall ÷ baseline | CPU ÷ baseline |',
    '|---|---:|---:|---:|---:|',
    row(`baseline (${tree.label}), in one thread`, samples.baseline),
    row('this checkout, in one thread (CLI commands)', samples.thread),
    row(`this checkout, ${workers.threads} worker threads (the server)`, samples.workers),
    '',
    `Commitment of a 1,000,000-unit block in worker threads: **${fmt(workersMs)} ms** wall, ${fmt(cpu(samples.workers))} ms CPU ` +
      `(target ≤ 1,000 ms: ${workersMs <= 1000 ? 'met' : 'not met on this run'}). The first block, the threads starting ` +
      `(tsx loads their modules; once per batch of blocks): ${fmt(start.ms)} ms wall, ${fmt(start.cpuMs)} ms CPU. Reading the commitment kept beside a block ` +
      `(what a server's start does instead): ${fmt(reading.ms)} ms wall, ${fmt(reading.cpuMs)} ms CPU.`,
    '',
    `Proofs (${fmt(PROOFS)} positions spread over the block), CPU time each: making one ${fmt((making.cpuMs * 1000) / PROOFS)} µs`,
    `(4 salts and leaves, a path read from the kept tree, the unit), checking one ${fmt((checking.cpuMs * 1000) / PROOFS)} µs`,
    '(pure TypeScript SHA-256, as in the browser).',
    `A path holds ${fmt(Math.min(...pathHashes))}–${fmt(Math.max(...pathHashes))} sibling hashes (${fmt(Math.max(...pathHashes) * 32)} bytes at most);`,
    `the whole proof as the API sends it (JSON, with the unit) is ${fmt(Math.min(...sizes))}–${fmt(Math.max(...sizes))} bytes.`,
    '',
  ].join('\n');
  await writeBenchmarkSection('## Proofs', section, true);
}

try {
  await bench();
} finally {
  await cleanUp();
}

/**
 * `npm run bench:emission`: times generate, audit and export of one full block next to
 * a baseline measured in the same run (a bare Fisher–Yates shuffle of 1,000,000 indices
 * plus writing a buffer of the block's size), and writes the figures into the
 * `## Emission` section of BENCHMARKS.md. Each phase runs in its own process, so its
 * peak RSS is its own.
 */
import { spawnSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BLOCK_SIZE } from '../src/rules/index.ts';
import { auditBlock, generateBlock, readBlockFile, writeBlockFile } from '../src/emission/index.ts';
import { exportCsv, exportRange } from '../src/emission/export.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';

const RUNS = 3;
const PHASES = ['baseline', 'generate', 'audit', 'export'] as const;
type Phase = (typeof PHASES)[number];

interface Sample {
  ms: number;
  /** User + system CPU of the phase: less sensitive than wall time to other load on the machine. */
  cpuMs: number;
  peakRssMB: number;
}

async function runPhase(phase: Phase, dir: string): Promise<Sample> {
  const block = join(dir, 'block.spincake');
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  switch (phase) {
    case 'baseline': {
      const indices = new Uint32Array(BLOCK_SIZE);
      for (let i = 0; i < BLOCK_SIZE; i++) indices[i] = i;
      const random = randomFillSync(new Uint32Array(BLOCK_SIZE));
      for (let i = BLOCK_SIZE - 1; i > 0; i--) {
        const j = random[i]! % (i + 1);
        const t = indices[i]!;
        indices[i] = indices[j]!;
        indices[j] = t;
      }
      const fd = openSync(join(dir, 'baseline.bin'), 'w');
      const size = statSync(block).size;
      const buffer = new Uint8Array(size);
      buffer.set(new Uint8Array(indices.buffer).subarray(0, Math.min(size, indices.byteLength)));
      writeSync(fd, buffer);
      fsyncSync(fd);
      closeSync(fd);
      break;
    }
    case 'generate':
      await writeBlockFile(block, generateBlock({ stakeCents: 100 }));
      break;
    case 'audit': {
      const report = auditBlock(readBlockFile(block));
      if (!report.ok) throw new Error('the benchmark block fails its audit');
      break;
    }
    case 'export': {
      const b = readBlockFile(block);
      exportCsv(b, join(dir, 'block.csv'), exportRange(b));
      break;
    }
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMB: process.resourceUsage().maxRSS / 1024 };
}

function measure(phase: Phase, dir: string): Sample {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), phase, dir], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`${phase} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Sample;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'spincake-bench-'));
  try {
    // The baseline writes a buffer of the block's size, so make one block first.
    measure('generate', dir);
    const loadBefore = loadavg()[0]!;
    const samples = new Map<Phase, Sample[]>(PHASES.map((p) => [p, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const phase of PHASES) {
        samples.get(phase)!.push(measure(phase, dir));
        console.error(`run ${run + 1}/${RUNS} ${phase}: ${fmt(samples.get(phase)!.at(-1)!.ms)} ms`);
      }
    }
    const fileBytes = statSync(join(dir, 'block.spincake')).size;
    const csvBytes = statSync(join(dir, 'block.csv')).size;
    const loadAfter = loadavg()[0]!;
    const ms = (p: Phase) => median(samples.get(p)!.map((s) => s.ms));
    const cpu = (p: Phase) => median(samples.get(p)!.map((s) => s.cpuMs));
    const rss = (p: Phase) => Math.max(...samples.get(p)!.map((s) => s.peakRssMB));
    const base = ms('baseline');
    const row = (label: string, p: Phase, target: string) =>
      `| ${label} | ${fmt(ms(p))} | ${fmt(cpu(p))} | ${fmt(BLOCK_SIZE / (ms(p) / 1000))} | ${fmt(ms(p) / base, 2)}× | ${fmt(cpu(p) / cpu('baseline'), 2)}× | ${fmt(rss(p))} | ${target} |`;
    const section = [
      '## Emission',
      '',
      `\`npm run bench:emission\`, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'},`,
      `Node ${process.version}. One full block of ${fmt(BLOCK_SIZE)} units at 1 €; each phase in its own process,`,
      `median of ${RUNS} runs (times include reading/writing the files, with fsync); peak RSS is the phase's process.`,
      `Load average during the run: ${fmt(loadBefore, 1)} → ${fmt(loadAfter, 1)} (other work shares the machine: wall`,
      'times are inflated by it; CPU times less so).',
      '',
      `Baseline (same run): a bare Fisher–Yates shuffle of ${fmt(BLOCK_SIZE)} indices (Uint32Array, CSPRNG words)`,
      `plus writing and fsyncing a buffer of the block's size: **${fmt(base)} ms**.`,
      '',
      '| phase | wall ms | CPU ms | units/s (wall) | wall ratio | CPU ratio | peak RSS MB | target |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
      row('baseline', 'baseline', '—'),
      row('generate + write', 'generate', '≤ 2 000 ms, ≤ 300 MB'),
      row('read + verify + audit', 'audit', '≤ 1 000 ms, ≤ 300 MB'),
      row('read + export CSV', 'export', '—'),
      '',
      `Block file: ${fmt(fileBytes)} bytes = **${fmt(fileBytes / BLOCK_SIZE, 2)} bytes/unit** (26-byte records + a 96-byte header; target ≤ 32).`,
      `CSV export: ${fmt(csvBytes / 1e6)} MB (${fmt(csvBytes / BLOCK_SIZE)} bytes/unit), written in chunks.`,
      '',
    ].join('\n');
    await writeBenchmarkSection('## Emission', section);
    console.log(section);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [phase, dir] = process.argv.slice(2);
if (phase === undefined) {
  await bench();
} else if ((PHASES as readonly string[]).includes(phase) && dir !== undefined) {
  console.log(JSON.stringify(await runPhase(phase as Phase, dir)));
} else {
  console.error('usage: tsx bench/emission.ts');
  process.exitCode = 2;
}

/**
 * `npm run bench:proofs`: the commitment of one full block (every leaf salted and hashed,
 * then the tree), next to two baselines measured in the same run: node:crypto's
 * SHA-256 of the block's body (the same 26 MB, hashed natively in one pass) and the
 * block's generation. Also a proof's making and checking time and its size. Figures go
 * into the `## Proofs` section of BENCHMARKS.md.
 */
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { commitBlock, generateBlock, unitProof, type Block } from '../src/emission/index.ts';
import { TICKET_PROOF_FORMAT, verifyTicketProof, type TicketProof } from '../src/proofs/index.ts';
import { BLOCK_SIZE } from '../src/rules/index.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';

const RUNS = 5;
const PROOFS = 2_000;

interface Sample {
  ms: number;
  cpuMs: number;
}

function timed(work: () => void): Sample {
  const cpu = process.cpuUsage();
  const start = performance.now();
  work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function ticketOf(block: Block, commitment: ReturnType<typeof commitBlock>, position: number): TicketProof {
  const proof = unitProof(block, commitment, position);
  return {
    format: TICKET_PROOF_FORMAT,
    playId: '00000000-0000-4000-8000-000000000000',
    blockId: block.id,
    stakeCents: block.header.stakeCents,
    count: block.header.count,
    position,
    wheels: block.unitAt(position).wheels,
    lotCents: proof.lotCents,
    salt: proof.salt,
    leaf: proof.leaf,
    path: proof.path,
    root: commitment.root,
    seedHash: commitment.seedHash,
  };
}

async function bench(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  let block = generateBlock({ stakeCents: 100, seedHex: 'b0b0' });
  const samples = { generate: [] as Sample[], sha: [] as Sample[], commit: [] as Sample[] };
  let commitment = commitBlock(block); // warms the JIT up
  for (let run = 0; run < RUNS; run++) {
    // Interleaved, so that load on the shared machine falls on all three alike.
    samples.generate.push(timed(() => (block = generateBlock({ stakeCents: 100, seedHex: 'b0b0' }))));
    samples.sha.push(timed(() => createHash('sha256').update(block.body).digest()));
    samples.commit.push(timed(() => (commitment = commitBlock(block))));
    console.error(`run ${run + 1}/${RUNS}: commitment ${fmt(samples.commit.at(-1)!.ms)} ms`);
  }
  const positions = Array.from({ length: PROOFS }, (_, i) => Math.floor((i * BLOCK_SIZE) / PROOFS) + (i % 7));
  let tickets: TicketProof[] = [];
  const making = timed(() => (tickets = positions.map((p) => ticketOf(block, commitment, p))));
  const checking = timed(() => {
    for (const t of tickets) if (!verifyTicketProof(t, commitment.root).ok) throw new Error('a proof fails');
  });
  const sizes = tickets.map((t) => JSON.stringify(t).length);
  const pathHashes = tickets.map((t) => t.path.flat().length);
  const loadAfter = loadavg()[0]!;

  const ms = (s: Sample[]) => median(s.map((x) => x.ms));
  const cpu = (s: Sample[]) => median(s.map((x) => x.cpuMs));
  const commitMs = ms(samples.commit);
  const row = (label: string, s: Sample[]) =>
    `| ${label} | ${fmt(ms(s))} | ${fmt(cpu(s))} | ${fmt(ms(s) / ms(samples.sha), 1)}× | ${fmt(ms(s) / ms(samples.generate), 2)}× |`;
  const section = [
    '## Proofs',
    '',
    `\`npm run bench:proofs\`, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'},`,
    `Node ${process.version}. One full block of ${fmt(BLOCK_SIZE)} units at 1 €, median of ${RUNS} interleaved runs in one`,
    `process. Load average during the run: ${fmt(loadBefore, 1)} → ${fmt(loadAfter, 1)} (the machine is shared: wall`,
    'times are inflated by it, the ratios much less).',
    '',
    'Baselines (same run): node:crypto SHA-256 of the block body (26 MB, native, one pass) and the',
    'generation of the block from its seed.',
    '',
    '| phase | wall ms | CPU ms | ÷ SHA-256 of the body | ÷ generation |',
    '|---|---:|---:|---:|---:|',
    row('SHA-256 of the body (baseline)', samples.sha),
    row('generation (baseline)', samples.generate),
    row('**commitment** (1,000,000 salts, leaves, tree)', samples.commit),
    '',
    `Commitment of a 1,000,000-unit block: **${fmt(commitMs)} ms** wall (target ≤ 1,000 ms: ${commitMs <= 1000 ? 'met' : 'not met on this run'}).`,
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

await bench();

/**
 * `npm run bench:transparency`: what the transparency log costs. A head (its tree's root
 * recomputed, signed with Ed25519, stored with an fsynced commit) against the store of the
 * same row alone (the baseline, same database, same run); and a ticket's proof with its
 * log part (the entry, a head, the inclusion proof) against the proof of the unit alone,
 * made and checked. On SQLite in a temporary directory, over a log of LOG_ENTRIES entries
 * (two per block: about that many blocks' lives). Figures go into the `## Transparency log`
 * section of BENCHMARKS.md.
 */
import fs from 'node:fs';
import { cpus, loadavg } from 'node:os';
import Database from 'better-sqlite3';
import { sha256 } from '@noble/hashes/sha2.js';
import { verifyTicketProof, type TicketProof } from '../src/proofs/index.ts';
import { SqliteLogStorage } from '../src/server/transparency/logStorage.ts';
import { LogSigningKey } from '../src/server/transparency/signingKey.ts';
import { TransparencyLog } from '../src/server/transparency/transparencyLog.ts';
import { testBlocks, testLibrary } from '../src/server/testing/blockCache.ts';
import { tempDataDir } from '../src/server/testing/harness.ts';
import { verifyLoggedTicket, type LoggedTicketProof, type Sha256 } from '../src/transparency/index.ts';
import { nodeSha256 } from '../src/transparency/nodeSha256.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';
import { ticketProofOf } from './ticketProof.ts';

const LOG_ENTRIES = 1_000;
const HEADS = 200;
const PROOFS = 500;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function cpuMicros(count: number, work: (i: number) => unknown): Promise<{ wallUs: number; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) await work(i);
  const used = process.cpuUsage(cpu);
  return { wallUs: ((performance.now() - start) * 1000) / count, cpuUs: (used.user + used.system) / count };
}

async function bench(): Promise<void> {
  const dir = tempDataDir();
  const loadBefore = loadavg()[0]!;
  let now = Date.now();
  const key = LogSigningKey.fromText('42'.repeat(32), 'the bench key');
  const log = await TransparencyLog.open(SqliteLogStorage.inDataDir(dir), key, {
    headSeconds: 60,
    clock: () => new Date(now),
  });
  try {
    const hex = (n: number) => n.toString(16).padStart(64, '0');
    for (let i = 0; i < LOG_ENTRIES - 5; i++) {
      await log.logCommitment({
        id: hex(i),
        pool: 'real',
        stakeCents: 100,
        count: 1_000_000,
        root: hex(i + 1),
        seedHash: hex(i + 2),
      });
    }
    // The test blocks, logged last: the proofs below are theirs.
    const library = await testLibrary();
    const blocks = await testBlocks();
    for (const { file, block } of blocks) {
      const commitment = await library.publish({ id: block.id, filePath: file });
      const { stakeCents, count } = block.header;
      await log.logCommitment({ id: block.id, pool: 'real', stakeCents, count, ...commitment });
    }

    // Heads: each turn a period later, so that every call signs and stores one.
    const heads = await cpuMicros(HEADS, async () => {
      now += 60_000;
      await log.signHeadIfDue();
    });
    const signOnly = await cpuMicros(HEADS * 10, (i) =>
      key.sign({ treeSize: LOG_ENTRIES, timestamp: i, rootHash: hex(i) }),
    );
    // Baseline: the same row stored alone, by a connection of its own with the log's settings.
    const db = new Database(`${dir}/spincake.sqlite`);
    db.pragma('synchronous = FULL');
    db.exec(
      'CREATE TABLE bench_heads (timestamp_ms INTEGER PRIMARY KEY, tree_size INTEGER, root_hash TEXT, signature TEXT) STRICT',
    );
    const insert = db.prepare('INSERT INTO bench_heads VALUES (?, ?, ?, ?)');
    const signature = key.sign({ treeSize: 1, timestamp: 1, rootHash: hex(1) }).signature;
    const stored = await cpuMicros(HEADS, (i) =>
      db.transaction(() => insert.run(i, LOG_ENTRIES, hex(i), signature)).immediate(),
    );
    db.close();

    // Tickets of the 1 € block, spread over it, sold after the last head.
    const { block } = blocks[0]!;
    const commitment = await library.publish({ id: block.id, filePath: blocks[0]!.file });
    const soldAt = new Date(now + 1000);
    const positions = Array.from({ length: PROOFS }, (_, i) => Math.floor((i * block.header.count) / PROOFS) + (i % 7));
    const units: TicketProof[] = [];
    const unitMaking = await cpuMicros(PROOFS, (i) => {
      units.push(ticketProofOf(block, commitment, positions[i]!));
    });
    const tickets: LoggedTicketProof[] = [];
    const logMaking = await cpuMicros(PROOFS, async (i) => {
      tickets.push({ ...units[i]!, playedAt: soldAt.toISOString(), log: await log.ticketLog(block.id, soldAt) });
    });
    const unitChecking = await cpuMicros(PROOFS, (i) => {
      if (!verifyTicketProof(units[i], commitment.root, nodeSha256).ok) throw new Error('a unit proof fails');
    });
    const options = (hash: Sha256) => ({
      publishedRoot: commitment.root,
      trustedKey: key.publicKey,
      sha256: hash,
    });
    const browserChecking = await cpuMicros(PROOFS, async (i) => {
      if (!(await verifyLoggedTicket(tickets[i], options(sha256))).ok) throw new Error('a logged proof fails');
    });
    const nodeChecking = await cpuMicros(PROOFS, async (i) => {
      if (!(await verifyLoggedTicket(tickets[i], options(nodeSha256))).ok) throw new Error('a logged proof fails');
    });
    const unitBytes = JSON.stringify(units[0]).length;
    const ticketBytes = JSON.stringify(tickets[0]).length;
    const loadAfter = loadavg()[0]!;
    const head = await log.latestHead();

    const us = (x: { cpuUs: number }) => fmt(x.cpuUs);
    const ratio = (a: { cpuUs: number }, b: { cpuUs: number }) => `${fmt(a.cpuUs / b.cpuUs, 2)}×`;
    const section = [
      '## Transparency log',
      '',
      `\`npm run bench:transparency\`, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'},`,
      `Node ${process.version}, SQLite in a temporary directory. A log of ${fmt(head.treeSize)} entries. Load average during`,
      `the run: ${fmt(loadBefore, 1)} → ${fmt(loadAfter, 1)} (the machine is shared by other work: wall times are inflated`,
      "by it, CPU times less, the ratios least). CPU time of the whole process per operation; each row's baseline is",
      'measured in the same run.',
      '',
      '| operation | wall µs | CPU µs | CPU ÷ baseline |',
      '|---|---:|---:|---:|',
      `| store a head's row alone, fsynced commit (baseline) | ${fmt(stored.wallUs)} | ${us(stored)} | 1.00× |`,
      `| a head: root over ${fmt(head.treeSize)} leaves, Ed25519 signature, fsynced commit | ${fmt(heads.wallUs)} | ${us(heads)} | ${ratio(heads, stored)} |`,
      `| the Ed25519 signature alone | ${fmt(signOnly.wallUs)} | ${us(signOnly)} | ${ratio(signOnly, stored)} |`,
      `| make a unit's proof (baseline) | ${fmt(unitMaking.wallUs)} | ${us(unitMaking)} | 1.00× |`,
      `| add its log part (entry, newest head before the sale, inclusion proof) | ${fmt(logMaking.wallUs)} | ${us(logMaking)} | ${ratio(logMaking, unitMaking)} |`,
      `| check a unit's proof (baseline; node:crypto's SHA-256, as npm run verify) | ${fmt(unitChecking.wallUs)} | ${us(unitChecking)} | 1.00× |`,
      `| check it with its log part, @noble/hashes' SHA-256 and WebCrypto Ed25519 (the browser's way) | ${fmt(browserChecking.wallUs)} | ${us(browserChecking)} | ${ratio(browserChecking, unitChecking)} |`,
      `| the same with node:crypto's SHA-256 (\`npm run verify\`) | ${fmt(nodeChecking.wallUs)} | ${us(nodeChecking)} | ${ratio(nodeChecking, unitChecking)} |`,
      '',
      `A head is signed after every entry (two per block) and at least every LOG_HEAD_SECONDS: at the default 60 s, ${fmt(heads.cpuUs / 1000, 1)} ms of CPU`,
      'a minute for the whole log (one instance signs). Its root comes from the complete subtrees kept in memory, so a head or a',
      'proof hashes O(log n) new nodes. A play does no log work: the gate is a lookup in memory; the log part is made when a',
      `proof is asked for. The proof as the API sends it grows from ${fmt(unitBytes)} to ${fmt(ticketBytes)} bytes of JSON (the inclusion proof`,
      `holds ${fmt(tickets[0]!.log!.inclusion.length)} hashes here).`,
      '',
    ].join('\n');
    await writeBenchmarkSection('## Transparency log', section, true);
    await library.close();
  } finally {
    await log.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await bench();

/**
 * `npm run bench:server`: durable plays per second over HTTP, next to a bare JSON route
 * of the same server in the same run, at 1, 16 and 64 connections (autocannon). The
 * server runs as its own process (node + tsx, SQLite WAL, synchronous=FULL), exactly as
 * `npm start` runs it; the load generator shares the machine's cores with it.
 * Writes the figures into the `## Server` section of BENCHMARKS.md.
 *
 * Before/after: `BENCH_BASELINE=REV npm run bench:server` (or `npm run bench:server --
 * --baseline REV`) also runs the server of git revision REV (its tree from `git archive` in a
 * temporary directory, with this checkout's node_modules), as a second process spawned the
 * same way, each on its own fresh data dir holding the same test blocks, put on sale by its
 * own tree's `load` command (a tree with pools plays its demo sessions from the demo blocks
 * its first start makes, not from the loaded real ones: both measure a demo session's play).
 * The two are measured in the same run, interleaved: every round runs the bare route then the
 * plays against one server, then the other, the first one alternating from round to round. The section then also holds a before/after table: per
 * connection count, after ÷ before for plays/s and server CPU µs/play (median and range of
 * the per-round ratios), and each server's plays ÷ bare. The temporary tree, the data dirs
 * and the servers are removed or stopped when the run ends, also on failure or Ctrl-C.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { newPlayId } from '../src/client/net/playId.ts';
import { SqliteStore } from '../src/server/store/sqlite/sqliteStore.ts';
import { testBlocks, testLibrary } from '../src/server/testing/blockCache.ts';
import { spawnServer, type ChildServer } from '../src/server/testing/child.ts';
import { addTestBlocks, tempDataDir } from '../src/server/testing/harness.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';
import { processCpuMs } from './processCpu.ts';
import {
  cleanUp,
  currentTree,
  loadBlocks,
  materialise,
  removeLater,
  spawnTreeServer,
  stopLater,
  tempDir,
} from './serverTree.ts';

const CONNECTIONS = [1, 16, 64];
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_S = 2;
/** Each figure is the median of this many rounds, taken in turn with the bare route's (the machine is noisy). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The git revision to compare with (`BENCH_BASELINE=REV`, or `--baseline REV`); none: the current code alone. */
const BASELINE = baselineArgument();

function baselineArgument(): string | undefined {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === '--baseline' || a.startsWith('--baseline='));
  if (at < 0) return process.env.BENCH_BASELINE || undefined;
  const rev = args[at]!.includes('=') ? args[at]!.slice('--baseline='.length) : args[at + 1];
  if (!rev) throw new Error('--baseline needs a git revision');
  return rev;
}

/** The same settings for every server measured. */
const SERVER_ENV = (dataDir: string): Record<string, string> => ({
  DATA_DIR: dataDir,
  CLIENT_DIR: dataDir,
  DEMO_BALANCE_CENTS: '100000000',
  RATE_LIMIT_PER_MINUTE: '10000000',
  SESSION_CREATE_PER_MINUTE: '100000',
  // A demo session buys from the server's own demo blocks (issue 28's pools): the first start
  // makes one per stake, and no refill is made mid-run (its worker would count as play CPU).
  DEMO_REFILL_UNITS: '0',
});

/** A first start on a fresh data dir makes the demo pool's blocks (seconds each, four stakes). */
const FIRST_START_TIMEOUT_MS = 300_000;

interface Figures {
  rps: number;
  /** Server process CPU time (user + system) per request, µs: less sensitive to other load than rps. */
  cpuUs: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
const cpuSeconds = (pid: number): number => processCpuMs(pid) / 1000;

function run(options: autocannon.Options, serverPid: number): Promise<Figures> {
  const cpuBefore = cpuSeconds(serverPid);
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => {
      if (error) return reject(error);
      resolve({
        cpuUs: ((cpuSeconds(serverPid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total),
        rps: result.requests.total / (result.duration || DURATION_S),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
      });
    });
  });
}

/** The disk's own pace in this run: ms per one-row SQLite commit with synchronous = FULL (one fsync each). */
function fsyncMs(dir: string): number {
  const db = new Database(path.join(dir, 'fsync-probe.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE t (x INTEGER)');
  const insert = db.prepare('INSERT INTO t (x) VALUES (?)');
  const started = performance.now();
  for (let i = 0; i < 200; i++) insert.run(i);
  const ms = (performance.now() - started) / 200;
  db.close();
  return ms;
}

/** One server under measurement: its CPU is read from /proc, its requests made with its own session. */
interface Target {
  /** Which server, in the log lines; empty when there is only one. */
  name: string;
  pid: number;
  health: autocannon.Options;
  plays: autocannon.Options;
  /** The plays with random UUIDv4 playIds. */
  randomPlays: autocannon.Options;
}

async function target(server: ChildServer, name = ''): Promise<Target> {
  const session = (await (
    await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
  ).json()) as { token: string };
  const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
  // A fresh playId per request: every request is a new sale. The ids are made as the game's
  // client makes them (time-ordered UUIDv7); a last run sends random UUIDv4 ids instead.
  const playsWith = (makeId: () => string): autocannon.Options => ({
    url: server.url,
    requests: [
      {
        method: 'POST',
        path: '/api/plays',
        headers,
        setupRequest: (request) => ({ ...request, body: `{"stakeCents":100,"playId":"${makeId()}"}` }),
      },
    ],
  });
  return {
    name,
    pid: server.process.pid!,
    health: { url: `${server.url}/api/health`, headers },
    plays: playsWith(() => newPlayId()),
    randomPlays: playsWith(randomUUID),
  };
}

/** Per connection count (then the random-id run), per target, per round: the figures taken. */
interface Taken {
  rows: Round[][][];
  randomIds: Round[][];
}

async function measure(targets: Target[]): Promise<Taken> {
  for (const t of targets) {
    await run({ ...t.health, connections: 16, duration: WARMUP_S }, t.pid);
    await run({ ...t.plays, connections: 16, duration: WARMUP_S }, t.pid);
  }
  const rows: Round[][][] = [];
  for (const connections of CONNECTIONS) {
    rows.push(await rounds(targets, connections, 'client ids', (t) => t.plays));
  }
  const randomIds = await rounds(targets, 16, 'random v4 ids', (t) => t.randomPlays);
  return { rows, randomIds };
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  try {
    if (BASELINE === undefined) await current(loadBefore);
    else await beforeAfter(BASELINE, loadBefore);
  } finally {
    await cleanUp();
  }
}

/** The current code alone, its data dir prepared in this process. */
async function current(loadBefore: number): Promise<void> {
  const dataDir = tempDataDir();
  removeLater(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const commitMs = fsyncMs(dataDir);
  const store = SqliteStore.open(dataDir, await testLibrary());
  await addTestBlocks(store);
  await store.close();
  const server = await spawnServer(SERVER_ENV(dataDir));
  stopLater(server.process);
  const taken = await measure([await target(server)]);
  const summary = (connections: number, rounds: Round[][]) => summarise(connections, rounds[0]!);
  await writeSection(
    taken.rows.map((r, i) => summary(CONNECTIONS[i]!, r)),
    summary(16, taken.randomIds),
    loadBefore,
    commitMs,
  );
}

/**
 * The baseline revision's server and the current one, side by side, measured in turn; each
 * data dir prepared by its own tree's `load` command from the same block files.
 */
async function beforeAfter(rev: string, loadBefore: number): Promise<void> {
  const trees = [materialise(rev, process.env.BENCH_BASELINE_NODE || undefined), currentTree()] as const;
  console.log(`before: ${trees[0].label} (tree in ${trees[0].root}); after: ${trees[1].label}`);
  const files = (await testBlocks()).map((b) => b.file);
  const dataDirs = trees.map(() => tempDir('spincake-bench-'));
  const commitMs = fsyncMs(dataDirs[1]!);
  trees.forEach((tree, i) => loadBlocks(tree, dataDirs[i]!, files));
  execFileSync('sync'); // the block copies reach the disk before the measurements, not during them
  const servers: ChildServer[] = [];
  for (const [i, tree] of trees.entries())
    servers.push(await spawnTreeServer(tree, SERVER_ENV(dataDirs[i]!), FIRST_START_TIMEOUT_MS));
  const targets = [
    await target(servers[0]!, `before ${trees[0].label}`),
    await target(servers[1]!, `after ${trees[1].label}`),
  ];
  const taken = await measure(targets);
  const rows = taken.rows.map((r, i) => compare(CONNECTIONS[i]!, 'client ids', r[0]!, r[1]!));
  const randomIds = compare(16, 'random v4 ids', taken.randomIds[0]!, taken.randomIds[1]!);
  await writeSection(
    rows.map((r) => r.after),
    randomIds.after,
    loadBefore,
    commitMs,
    {
      before: trees[0].label,
      after: trees[1].label,
      rev,
      baselineNode: trees[0].node === process.execPath ? undefined : trees[0].node,
      rows: [...rows, randomIds],
    },
  );
}

interface Round {
  health: Figures;
  plays: Figures;
}

/** Counts the rounds of the whole run, so that which server goes first alternates from one to the next. */
let turn = 0;

/**
 * ROUNDS rounds at one connection count; in each, every target runs the bare route then the
 * plays, back to back (with two targets, the first of a round is the second of the previous one).
 */
async function rounds(
  targets: Target[],
  connections: number,
  label: string,
  plays: (t: Target) => autocannon.Options,
): Promise<Round[][]> {
  const taken: Round[][] = targets.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    const order = targets.map((_, i) => i);
    if (turn++ % 2) order.reverse();
    for (const i of order) {
      const t = targets[i]!;
      const h = await run({ ...t.health, connections, duration: DURATION_S }, t.pid);
      const p = await run({ ...plays(t), connections, duration: DURATION_S }, t.pid);
      taken[i]!.push({ health: h, plays: p });
      console.log(
        `${t.name ? `${t.name}: ` : ''}${connections} conn, ${label}, round ${round}/${ROUNDS}: plays ${p.rps.toFixed(0)}/s cpu ${p.cpuUs.toFixed(0)} µs p50 ${p.p50} ms p99 ${p.p99} ms (errors ${p.errors}, non-2xx ${p.non2xx}); ` +
          `health ${h.rps.toFixed(0)}/s cpu ${h.cpuUs.toFixed(0)} µs p50 ${h.p50} ms p99 ${h.p99} ms; ratio ${(p.rps / h.rps).toFixed(2)}`,
      );
    }
  }
  return taken;
}

interface Row {
  connections: number;
  /** Medians over the rounds, figure by figure. */
  health: Figures;
  plays: Figures;
  /** Median, lowest and highest of the per-round ratios plays ÷ bare. */
  ratio: number;
  ratioRange: [number, number];
  errors: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function medianFigures(list: Figures[]): Figures {
  return {
    rps: median(list.map((f) => f.rps)),
    cpuUs: median(list.map((f) => f.cpuUs)),
    p50: median(list.map((f) => f.p50)),
    p99: median(list.map((f) => f.p99)),
    errors: list.reduce((n, f) => n + f.errors, 0),
    non2xx: list.reduce((n, f) => n + f.non2xx, 0),
  };
}

function summarise(connections: number, rounds: Round[]): Row {
  const ratios = rounds.map((r) => r.plays.rps / r.health.rps);
  const plays = medianFigures(rounds.map((r) => r.plays));
  return {
    connections,
    health: medianFigures(rounds.map((r) => r.health)),
    plays,
    ratio: median(ratios),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    errors: plays.errors + plays.non2xx,
  };
}

interface Spread {
  median: number;
  range: [number, number];
}

function spread(values: number[]): Spread {
  return { median: median(values), range: [Math.min(...values), Math.max(...values)] };
}

/** One connection count measured on both servers: each one's summary, and after ÷ before taken round by round. */
interface Comparison {
  label: string;
  before: Row;
  after: Row;
  rps: Spread;
  cpuUs: Spread;
  bareRps: Spread;
}

function compare(connections: number, label: string, before: Round[], after: Round[]): Comparison {
  const ratio = (figure: (r: Round) => number) => spread(after.map((a, i) => figure(a) / figure(before[i]!)));
  return {
    label,
    before: summarise(connections, before),
    after: summarise(connections, after),
    rps: ratio((r) => r.plays.rps),
    cpuUs: ratio((r) => r.plays.cpuUs),
    bareRps: ratio((r) => r.health.rps),
  };
}

interface BeforeAfter {
  /** The revisions' labels (short hashes), and the baseline as it was named. */
  before: string;
  after: string;
  rev: string;
  /** The baseline's own Node executable, when it is not this run's. */
  baselineNode?: string;
  rows: Comparison[];
}

function beforeAfterLines(b: BeforeAfter): string[] {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const x = (s: Spread) => s.median.toFixed(2);
  const range = (s: Spread) => s.range.map((v) => v.toFixed(2)).join('–');
  const errors = (side: 'before' | 'after') => b.rows.reduce((n, r) => n + r[side].errors, 0);
  return [
    '',
    `### Before/after: \`${b.before}\` → \`${b.after}\``,
    '',
    `\`BENCH_BASELINE=${b.rev}${b.baselineNode ? ` BENCH_BASELINE_NODE=${b.baselineNode}` : ''} npm run bench:server\`, the same run as the table above: before is revision`,
    `\`${b.before}\` (its tree from \`git archive\`, with ${b.baselineNode ? `node_modules of its own installed by that Node's npm` : "this checkout's node_modules"}), after is the current code`,
    `\`${b.after}\` on Node ${process.version} (the table above). Two server processes spawned the same way, each on its own fresh data`,
    "dir holding the same test blocks, put on sale by its own tree's `load` command; one of them under load at a",
    'time. In every round each server runs the bare route then the plays, back to back, and which server goes',
    'first alternates from round to round. The ratios after ÷ before are taken per round (median and range',
    `over ${ROUNDS} rounds); server CPU µs/play is the figure least disturbed by other work on the machine, and`,
    "the bare route's ratio shows what the machine's noise alone does to a ratio.",
    '',
    '| connections | plays/s before | plays/s after | plays/s after ÷ before | range | CPU µs/play before | CPU µs/play after | CPU/play after ÷ before | range | bare req/s after ÷ before | plays ÷ bare before | plays ÷ bare after |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...b.rows.map(
      (r) =>
        `| ${r.after.connections}${r.label === 'client ids' ? '' : ` (${r.label})`} | ${fmt(r.before.plays.rps)} | ${fmt(r.after.plays.rps)} | ${x(r.rps)} | ${range(r.rps)} | ` +
        `${fmt(r.before.plays.cpuUs)} | ${fmt(r.after.plays.cpuUs)} | ${x(r.cpuUs)} | ${range(r.cpuUs)} | ${x(r.bareRps)} | ${r.before.ratio.toFixed(2)} | ${r.after.ratio.toFixed(2)} |`,
    ),
    '',
    `Errors or non-2xx answers during the play runs: before ${errors('before')}, after ${errors('after')}.`,
  ];
}

async function writeSection(
  rows: Row[],
  randomIds: Row,
  loadBefore: number,
  commitMs: number,
  beforeAfter?: BeforeAfter,
): Promise<void> {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const at16 = rows.find((r) => r.connections === 16)!;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const lines = [
    '## Server',
    '',
    `\`npm run bench:server\`, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${cpu}, Node ${process.version}.`,
    `autocannon, ${DURATION_S} s per run after a ${WARMUP_S} s warm-up, against one server process`,
    '(SQLite WAL; every acknowledged play has been fsynced) on the same machine as the load generator.',
    'Each play is a new sale (fresh playId): debit, next unit of the block, play row, ledger entries.',
    "The playIds are made as the game's client makes them: time-ordered UUIDv7 (`src/client/net/playId.ts`).",
    'Baseline in the same run: `GET /api/health`, a bare JSON route of the same server (same hooks:',
    'session, rate limit, security headers).',
    `Each figure is the median of ${ROUNDS} rounds; in each round the bare route and the plays run back to back,`,
    'and the ratio is taken per round (median and range shown).',
    `Machine load average when the run started: ${loadBefore.toFixed(1)} (other work shares the 2 cores and the disk).`,
    `The disk's pace in the same run: ${commitMs.toFixed(2)} ms per one-row SQLite commit with \`synchronous = FULL\` (one fsync).`,
    '',
    '| connections | plays/s | p50 ms | p99 ms | server CPU µs/play | bare req/s | bare p50 ms | bare p99 ms | bare CPU µs/req | plays ÷ bare | ratio range |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.connections} | ${fmt(r.plays.rps)} | ${r.plays.p50} | ${r.plays.p99} | ${fmt(r.plays.cpuUs)} | ${fmt(r.health.rps)} | ${r.health.p50} | ${r.health.p99} | ${fmt(r.health.cpuUs)} | ${r.ratio.toFixed(2)} | ${r.ratioRange.map((x) => x.toFixed(2)).join('–')} |`,
    ),
    '',
    `Targets at 16 connections: ≥ 2,000 durable plays/s: ${fmt(at16.plays.rps)} (${met(at16.plays.rps >= 2000)}); ` +
      `≥ 0.3 of the bare route: ${at16.ratio.toFixed(2)} (${met(at16.ratio >= 0.3)}); ` +
      `p99 ≤ 20 ms: ${at16.plays.p99} ms (${met(at16.plays.p99 <= 20)}).`,
    `Errors or non-2xx answers during the play runs: ${rows.reduce((n, r) => n + r.errors, randomIds.errors)}.`,
    '',
    `The same at 16 connections with random UUIDv4 playIds (a client other than ours), run last on the`,
    `grown database: ${fmt(randomIds.plays.rps)} plays/s, p99 ${randomIds.plays.p99} ms, ` +
      `${fmt(randomIds.plays.cpuUs)} µs CPU/play, ratio ${randomIds.ratio.toFixed(2)} (range ${randomIds.ratioRange.map((x) => x.toFixed(2)).join('–')}). ` +
      'Each random id lands on a random page of the unique playId index, a page more per play to write',
    "to the WAL at commit; time-ordered ids of one batch share the index's last page.",
    'Server CPU per request (from /proc, all threads of the server process) is the figure least',
    'disturbed by other work on the machine; plays/s at 1 connection is bounded by one fsync per play.',
    '',
    'How: plays are group-committed. The plays that arrive while the previous fsync runs share one',
    'SQLite transaction, decided in memory by the planner both stores share. The connection runs `synchronous = NORMAL` and the',
    'WAL is fdatasynced off the event loop (libuv pool), one fsync covering every commit made before it',
    'started; no answer (play, replay or read) leaves before the data it shows is on disk. So the disk',
    'wait overlaps the next requests instead of blocking them. At 1 connection each play still waits a',
    'whole fsync. Per play: a few prepared statements, the unit stored as 52 ASCII characters (no JSON),',
    'responses serialised from their JSON schemas.',
    ...(beforeAfter ? beforeAfterLines(beforeAfter) : []),
  ];
  await writeBenchmarkSection('## Server', lines.join('\n') + '\n');
}

await main();

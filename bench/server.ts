/**
 * `npm run bench:server`: durable plays per second over HTTP, next to a bare JSON route
 * of the same server in the same run, at 1, 16 and 64 connections (autocannon). The
 * server runs as its own process (node + tsx, SQLite WAL, synchronous=FULL), exactly as
 * `npm start` runs it; the load generator shares the machine's cores with it.
 * Writes the figures into the `## Server` section of BENCHMARKS.md.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { newPlayId } from '../src/client/net/playId.ts';
import { SqliteStore } from '../src/server/store/sqlite/sqliteStore.ts';
import { testLibrary } from '../src/server/testing/blockCache.ts';
import { spawnServer } from '../src/server/testing/child.ts';
import { addTestBlocks, tempDataDir } from '../src/server/testing/harness.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';

const CONNECTIONS = [1, 16, 64];
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_S = 2;
/** Each figure is the median of this many rounds, taken in turn with the bare route's (the machine is noisy). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

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
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

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

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  const dataDir = tempDataDir();
  const commitMs = fsyncMs(dataDir);
  const store = SqliteStore.open(dataDir, await testLibrary());
  await addTestBlocks(store);
  await store.close();
  const server = await spawnServer({
    DATA_DIR: dataDir,
    CLIENT_DIR: dataDir,
    DEMO_BALANCE_CENTS: '100000000',
    RATE_LIMIT_PER_MINUTE: '10000000',
  });
  try {
    const session = (await (
      await fetch(`${server.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { token: string };
    const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
    const health: autocannon.Options = { url: `${server.url}/api/health`, headers };
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
    const plays = playsWith(() => newPlayId());
    const pid = server.process.pid!;
    await run({ ...health, connections: 16, duration: WARMUP_S }, pid);
    await run({ ...plays, connections: 16, duration: WARMUP_S }, pid);

    const rows: Row[] = [];
    for (const connections of CONNECTIONS) {
      rows.push(await rounds(health, plays, pid, connections, 'client ids'));
    }
    const randomIds = await rounds(health, playsWith(randomUUID), pid, 16, 'random v4 ids');
    await writeSection(rows, randomIds, loadBefore, commitMs);
  } finally {
    server.process.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** ROUNDS rounds at one connection count, each the bare route then the plays, summarised. */
async function rounds(
  health: autocannon.Options,
  plays: autocannon.Options,
  pid: number,
  connections: number,
  label: string,
): Promise<Row> {
  const taken: { health: Figures; plays: Figures }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const h = await run({ ...health, connections, duration: DURATION_S }, pid);
    const p = await run({ ...plays, connections, duration: DURATION_S }, pid);
    taken.push({ health: h, plays: p });
    console.log(
      `${connections} conn, ${label}, round ${round}/${ROUNDS}: plays ${p.rps.toFixed(0)}/s cpu ${p.cpuUs.toFixed(0)} µs p50 ${p.p50} ms p99 ${p.p99} ms (errors ${p.errors}, non-2xx ${p.non2xx}); ` +
        `health ${h.rps.toFixed(0)}/s cpu ${h.cpuUs.toFixed(0)} µs p50 ${h.p50} ms p99 ${h.p99} ms; ratio ${(p.rps / h.rps).toFixed(2)}`,
    );
  }
  return summarise(connections, taken);
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

function summarise(connections: number, rounds: { health: Figures; plays: Figures }[]): Row {
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

async function writeSection(rows: Row[], randomIds: Row, loadBefore: number, commitMs: number): Promise<void> {
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
  ];
  await writeBenchmarkSection('## Server', lines.join('\n') + '\n');
}

await main();

/**
 * `npm run bench:postgres`: durable plays per second and latency with 1, 2 and 3 server
 * instances on one PostgreSQL database, next to one instance on SQLite and a control with
 * no database work (1 and 2 instances serving `GET /api/health`), in the same run.
 * Each instance is its own process (node + tsx, as `npm start` runs it); the load generator
 * (wrk, or autocannon) spreads its connections over the instances, as a proxy would. Per run it measures the
 * CPU time of every process (the instances, the PostgreSQL backends, the load generator)
 * from /proc, and samples pg_stat_activity to see what the play transactions wait on
 * (row locks on the block cursor, WAL flush, or the instance itself).
 * Writes the figures into the `## PostgreSQL` section of BENCHMARKS.md.
 *
 * With `--machines`: each instance and a private PostgreSQL cluster run in a CPU group of
 * their own with a quota (bench/machines/), as if on separate machines; 1, 2 and 3 instances
 * with the same quota each, and the figures go to that section's `### Separate machines`.
 */
import fs from 'node:fs';
import os from 'node:os';
import type autocannon from 'autocannon';
import pg from 'pg';
import { PostgresStore } from '../src/server/store/postgres/postgresStore.ts';
import { SqliteStore } from '../src/server/store/sqlite/sqliteStore.ts';
import { newPlayId } from '../src/client/net/playId.ts';
import type { Store } from '../src/server/store/types.ts';
import { testLibrary } from '../src/server/testing/blockCache.ts';
import { spawnServer, type ChildServer } from '../src/server/testing/child.ts';
import { addTestBlocks, tempDataDir } from '../src/server/testing/harness.ts';
import { createTestDatabase, postgresReachable, PG_TEST_URL } from '../src/server/testing/postgres.ts';
import { writeBenchmarkSection } from './benchmarksFile.ts';
import { processCpuMs } from './processCpu.ts';
import { autocannonLoad, nextWrkTag, runWrk, WRK_SCRIPTS, wrkAvailable, type LoadResult } from './loadGenerator.ts';
import { GROUP_SHARES } from './machines/groups.ts';
import { setUpMachines, quotaPlanFromEnv, type Machines } from './machines/machines.ts';
import { createDatabaseOn } from './machines/privatePostgres.ts';
import { describePlan as describePlanLine, throttlingBetween, type Throttling } from './machines/quotas.ts';
import { writeMachinesSection } from './machines/section.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_S = 2;
/** A multiple of 1, 2 and 3: every instance gets the same share. */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 48);
const PLAYERS = 64;
const SAMPLE_MS = 20;
/** Each setup runs this many times, in turn with the others; the median run is reported. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** `--machines`: CPU quotas per instance and for a private PostgreSQL (see the file's comment). */
const MACHINES = process.argv.includes('--machines');
/**
 * With --machines, connections per instance: each simulated machine gets the same load, so
 * that 2 and 3 instances are 2 and 3 times one (not one load split thinner).
 */
const CONNECTIONS_PER_MACHINE = Number(process.env.BENCH_CONNECTIONS_PER_INSTANCE ?? 48);
let machines: Machines | null = null;

/**
 * The load generator: Debian's wrk (in C, one process per instance, timed by /usr/bin/time)
 * where it is installed — it takes a quarter of the CPU that autocannon does, which leaves
 * more of the two cores to the servers under test; else (or with BENCH_LOADER=autocannon)
 * autocannon in this process.
 */
const LOADER = process.env.BENCH_LOADER === 'autocannon' || !wrkAvailable() ? 'autocannon' : 'wrk';

export interface Setup {
  label: string;
  /** The plays (default), or the bare `GET /api/health`: a control with no database work at all. */
  route?: 'health';
  store: 'sqlite' | 'postgres';
  instances: number;
  /** Stakes sold, in turn: one stake is one hot cursor row; all four spread the sales over four. */
  stakes: readonly number[];
  /** Instance i sells only stakes[i]: no block cursor is shared between instances. */
  stakePerInstance?: boolean;
}

const ONE_STAKE = [100] as const;
const FOUR_STAKES = [100, 200, 300, 500] as const;

const instancesLabel = (n: number) => `${n} instance${n === 1 ? '' : 's'}`;
/** The control: GET /api/health, no database work. */
const httpOnly = (instances: number): Setup => ({
  label: `HTTP only, ${instancesLabel(instances)}`,
  route: 'health',
  store: 'sqlite',
  instances,
  stakes: ONE_STAKE,
});
const plays = (store: Setup['store'], instances: number, stakes: readonly number[] = ONE_STAKE): Setup => ({
  label: `${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${instancesLabel(instances)}${stakes.length > 1 ? `, ${stakes.length} stakes` : ''}`,
  store,
  instances,
  stakes,
});
/** Instance i sells only the i-th stake: no cursor shared. */
const stakeEach = (instances: number): Setup => ({
  label: `PostgreSQL, ${instancesLabel(instances)}, a stake each`,
  store: 'postgres',
  instances,
  stakes: FOUR_STAKES.slice(0, instances),
  stakePerInstance: true,
});

const ALL_SETUPS: Setup[] = [
  httpOnly(1),
  httpOnly(2),
  plays('sqlite', 1),
  plays('postgres', 1),
  plays('postgres', 2),
  plays('postgres', 3),
  plays('postgres', 1, FOUR_STAKES),
  plays('postgres', 2, FOUR_STAKES),
  stakeEach(2),
];
/**
 * --machines: the control (HTTP only: what the quotas alone give), then the plays on one
 * stake (one cursor row for all instances), then a stake each (no cursor shared: the bound
 * of any cursor scheme).
 */
const MACHINE_SETUPS: Setup[] = [
  httpOnly(1),
  httpOnly(3),
  plays('postgres', 1),
  plays('postgres', 2),
  plays('postgres', 3),
  stakeEach(3),
];
/** BENCH_ONLY=2,3 runs only those setups (1-based, for a quick look; BENCHMARKS.md is then left alone). */
const ONLY = process.env.BENCH_ONLY?.split(',').map(Number);
const CHOSEN_SETUPS = MACHINES ? MACHINE_SETUPS : ALL_SETUPS;
const SETUPS = ONLY ? CHOSEN_SETUPS.filter((_, i) => ONLY.includes(i + 1)) : CHOSEN_SETUPS;

interface Waits {
  samples: number;
  /** Average number of play backends in each state over the samples. */
  lock: number;
  walFlush: number;
  onInstance: number;
  running: number;
  other: number;
  /**
   * --machines: share of the samples in which a stake's block cursor was locked by a batch
   * (pgrowlocks, which reads the row's lock without taking it), averaged over the stakes sold.
   */
  cursorHeld?: number;
}

export interface Row {
  setup: Setup;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  wallMs: number;
  instanceCpuMs: number[];
  postgresCpuMs: number;
  loaderCpuMs: number;
  waits: Waits | null;
  playsPerTxn: number | null;
  /** Slowest and fastest of the rounds, plays/s. */
  range?: [number, number];
  /** --machines: how often each instance's group, and PostgreSQL's, hit its quota. */
  instanceThrottling?: Throttling[];
  postgresThrottling?: Throttling;
  /** Connections of each instance's load. */
  connectionsPerInstance: number;
}

/** CPU ms per play: the instances and PostgreSQL, and with the load generator. */
function cpuPerPlay(r: Row): { server: number; all: number } {
  const plays = (r.rps * r.wallMs) / 1000;
  const server = r.instanceCpuMs.reduce((a, b) => a + b, 0) + r.postgresCpuMs;
  return { server: server / plays, all: (server + r.loaderCpuMs) / plays };
}

/**
 * CPU of every PostgreSQL process (postmaster, backends, WAL writer, checkpointer), by pid:
 * with --machines, those of the private cluster's group only.
 */
function postgresCpu(): Map<number, number> {
  const out = new Map<number, number>();
  if (machines) {
    for (const pid of machines.postgresGroup.pids()) out.set(pid, processCpuMs(pid));
    return out;
  }
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm === 'postgres') out.set(Number(entry), processCpuMs(Number(entry)));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

function postgresCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Samples what the play transactions of this database are doing, until stopped. */
function sampleWaits(url: string, stakes: number): { stop(): Promise<Waits> } {
  const client = new pg.Client({ connectionString: url });
  const waits: Waits = { samples: 0, lock: 0, walFlush: 0, onInstance: 0, running: 0, other: 0 };
  let cursorsHeld = 0;
  let stopped = false;
  const done = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ state: string; type: string | null; event: string | null }>(
        `SELECT state, wait_event_type AS type, wait_event AS event FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'spincake' AND state <> 'idle'`,
      );
      waits.samples++;
      for (const r of rows) {
        if (r.type === 'Lock') waits.lock++;
        else if (r.event === 'WALSync' || r.event === 'WALWrite' || r.event === 'WALInsert') waits.walFlush++;
        else if (r.state === 'idle in transaction' || r.event === 'ClientRead') waits.onInstance++;
        else if (r.type === null) waits.running++;
        else waits.other++;
      }
      if (machines) {
        const held = await client.query<{ n: number }>(
          `SELECT count(DISTINCT b.stake_cents)::int AS n FROM blocks b JOIN pgrowlocks('blocks') l ON l.locked_row = b.ctid`,
        );
        cursorsHeld += held.rows[0]!.n;
      }
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      const n = Math.max(1, waits.samples);
      return {
        samples: waits.samples,
        lock: waits.lock / n,
        walFlush: waits.walFlush / n,
        onInstance: waits.onInstance / n,
        running: waits.running / n,
        other: waits.other / n,
        ...(machines ? { cursorHeld: cursorsHeld / n / stakes } : {}),
      };
    },
  };
}

async function prepare(
  setup: Setup,
): Promise<{ env: Record<string, string>; url: string | null; cleanup(): Promise<void> }> {
  const library = await testLibrary();
  const dataDir = tempDataDir();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    CLIENT_DIR: dataDir,
    DEMO_BALANCE_CENTS: '100000000',
    RATE_LIMIT_PER_MINUTE: '10000000',
    SESSION_CREATE_PER_MINUTE: '100000',
  };
  let store: Store;
  let dropDatabase = async () => {};
  let url: string | null = null;
  if (setup.store === 'postgres') {
    const database = machines
      ? await createDatabaseOn(machines.postgres.adminUrl, `spincake_bench_${newPlayId().replaceAll('-', '')}`)
      : await createTestDatabase();
    url = database.url;
    env.DATABASE_URL = database.url;
    store = await PostgresStore.connect(database.url, library);
    dropDatabase = () => database.drop();
  } else {
    store = SqliteStore.open(dataDir, library);
  }
  await addTestBlocks(store);
  await store.close();
  return {
    env,
    url,
    cleanup: async () => {
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function measure(setup: Setup): Promise<Row> {
  const prepared = await prepare(setup);
  const servers: ChildServer[] = [];
  try {
    // One after the other: the first start applies the migrations, the others find them.
    const nodeArgs = process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
    for (let i = 0; i < setup.instances; i++) {
      const spawn = () => spawnServer(prepared.env, 60_000, nodeArgs);
      // --machines: instance i is born in its own CPU group (spawnServer forks synchronously).
      const starting = machines ? machines.instanceGroups[i]!.spawnInside(spawn) : spawn();
      servers.push(await starting);
      machines?.children.add(servers[i]!.process);
    }
    const urls = servers.map((s) => s.url);
    const tokens: string[] = [];
    for (let p = 0; p < PLAYERS; p++) {
      const reply = await fetch(`${urls[p % urls.length]}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      tokens.push(((await reply.json()) as { token: string }).token);
    }
    // One load per instance, each with its share of the connections and its own players:
    // a player stays on one instance, as behind a proxy with session affinity.
    const perInstance = MACHINES ? CONNECTIONS_PER_MACHINE : CONNECTIONS / urls.length;
    const loadOne = (url: string, i: number, duration: number): Promise<LoadResult> => {
      const mine = tokens.filter((_, p) => p % urls.length === i);
      const stakes = setup.stakePerInstance ? [setup.stakes[i]!] : setup.stakes;
      if (LOADER === 'wrk') {
        const target =
          setup.route === 'health'
            ? ['-H', `Authorization: Bearer ${mine[0]}`, `${url}/api/health`]
            : ['-s', WRK_SCRIPTS.plays, url, '--', mine.join(','), stakes.join(','), String(nextWrkTag())];
        return runWrk(perInstance, duration, target, machines?.loaderGroup);
      }
      if (setup.route === 'health') {
        return autocannonLoad({
          url: `${url}/api/health`,
          headers: { authorization: `Bearer ${mine[0]}` },
          connections: perInstance,
          duration,
        });
      }
      let n = 0;
      const requests = [
        {
          method: 'POST' as const,
          path: '/api/plays',
          // A fresh playId per request, players and stakes in turn: every request is a new sale.
          setupRequest: (request: autocannon.Request) => {
            n++;
            return {
              ...request,
              headers: { authorization: `Bearer ${mine[n % mine.length]}`, 'content-type': 'application/json' },
              body: `{"stakeCents":${stakes[n % stakes.length]},"playId":"${newPlayId()}"}`,
            };
          },
        },
      ];
      return autocannonLoad({ url, connections: perInstance, duration, requests });
    };
    const loadAll = (duration: number) => Promise.all(urls.map((url, i) => loadOne(url, i, duration)));
    await loadAll(WARMUP_S);

    const cpuBefore = servers.map((s) => processCpuMs(s.process.pid!));
    const pgBefore = postgresCpu();
    const selfBefore = selfCpuMs();
    const groupsBefore = machines?.instanceGroups.map((g) => g.stat());
    const postgresGroupBefore = machines?.postgresGroup.stat();
    const sampler = prepared.url ? sampleWaits(prepared.url, setup.stakes.length) : null;
    const started = performance.now();
    const results = await loadAll(DURATION_S);
    const wallMs = performance.now() - started;
    const waits = sampler ? await sampler.stop() : null;
    const row: Row = {
      setup,
      rps: results.reduce((n, r) => n + r.requests, 0) / (wallMs / 1000),
      // Per instance's load, the slowest: a conservative figure for the whole.
      p50: Math.max(...results.map((r) => r.p50)),
      p99: Math.max(...results.map((r) => r.p99)),
      errors: results.reduce((n, r) => n + r.errors, 0),
      non2xx: results.reduce((n, r) => n + r.non2xx, 0),
      wallMs,
      instanceCpuMs: servers.map((s, i) => processCpuMs(s.process.pid!) - cpuBefore[i]!),
      postgresCpuMs: postgresCpuDelta(pgBefore, postgresCpu()),
      loaderCpuMs: LOADER === 'wrk' ? results.reduce((n, r) => n + (r.cpuMs ?? 0), 0) : selfCpuMs() - selfBefore,
      waits,
      playsPerTxn: null,
      connectionsPerInstance: perInstance,
    };
    if (machines && groupsBefore && postgresGroupBefore) {
      row.instanceThrottling = servers.map((_, i) =>
        throttlingBetween(groupsBefore[i]!, machines!.instanceGroups[i]!.stat()),
      );
      row.postgresThrottling = throttlingBetween(postgresGroupBefore, machines.postgresGroup.stat());
    }
    if (prepared.url) {
      // Plays inserted by one transaction share its xmin: plays per commit, warm-up included.
      const client = new pg.Client({ connectionString: prepared.url });
      await client.connect();
      const { rows } = await client.query<{ plays: string; txns: string }>(
        'SELECT count(*) AS plays, count(DISTINCT xmin::text) AS txns FROM plays',
      );
      await client.end();
      row.playsPerTxn = Number(rows[0]!.plays) / Math.max(1, Number(rows[0]!.txns));
    }
    return row;
  } finally {
    for (const server of servers) server.process.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    for (const server of servers) machines?.children.delete(server.process);
    await prepared.cleanup();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (ms: number, wallMs: number) => `${Math.round((100 * ms) / wallMs)} %`;

function describeRow(r: Row): string {
  const throttled = r.instanceThrottling
    ? `; periods at quota: instances ${r.instanceThrottling.map((t) => pct(t.throttledShare, 1)).join(' + ')}, ` +
      `PostgreSQL ${pct(r.postgresThrottling!.throttledShare, 1)}`
    : '';
  const waits = r.waits
    ? `; waiting backends: lock ${r.waits.lock.toFixed(2)}, WAL ${r.waits.walFlush.toFixed(2)}, ` +
      `on instance ${r.waits.onInstance.toFixed(2)}, running ${r.waits.running.toFixed(2)}; plays/txn ${r.playsPerTxn?.toFixed(1)}` +
      (r.waits.cursorHeld !== undefined ? `; cursor held ${pct(r.waits.cursorHeld, 1)}` : '')
    : '';
  return (
    `${r.setup.label}: ${fmt(r.rps)} ${r.setup.route === 'health' ? 'requests' : 'plays'}/s, p50 ${r.p50} ms, p99 ${r.p99} ms (errors ${r.errors}, non-2xx ${r.non2xx}); ` +
    `CPU instances ${r.instanceCpuMs.map((ms) => pct(ms, r.wallMs)).join(' + ')}, PostgreSQL ${pct(r.postgresCpuMs, r.wallMs)}, ` +
    `load generator ${pct(r.loaderCpuMs, r.wallMs)}${waits}${throttled}`
  );
}

async function writeSection(rows: Row[], loadBefore: number[], loadAfter: number[]): Promise<void> {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const cores = os.cpus().length;
  const sqlite = rows.find((r) => r.setup.store === 'sqlite' && r.setup.route !== 'health')!;
  const oneStake = rows.find((r) => r.setup.stakes === ONE_STAKE && r.setup.store === 'postgres')!;
  const fourStakes = rows.find((r) => r.setup.stakes === FOUR_STAKES)!;
  const stakeEach = rows.find((r) => r.setup.stakePerInstance);
  const health = (instances: number) => rows.find((r) => r.setup.route === 'health' && r.setup.instances === instances);
  /** The one-instance row a row compares with: same route, same store, same stakes (a stake each: one stake). */
  const single = (like: Row) =>
    like.setup.route === 'health'
      ? health(1)
      : like.setup.store !== 'postgres'
        ? undefined
        : rows.find(
            (r) =>
              r.setup.store === 'postgres' &&
              r.setup.instances === 1 &&
              r.setup.stakes === (like.setup.stakePerInstance ? ONE_STAKE : like.setup.stakes),
          );
  const pg2 = (like: Row) =>
    rows.find(
      (r) =>
        r.setup.store === 'postgres' &&
        r.setup.instances === 2 &&
        !r.setup.stakePerInstance &&
        r.setup.stakes === like.setup.stakes,
    )!;
  const ratio = (r: Row) => {
    const base = single(r);
    return base ? (r.rps / base.rps).toFixed(2) : '—';
  };
  const ms = (v: number) => (Number.isNaN(v) ? '—' : v < 10 ? v.toFixed(1) : String(Math.round(v)));
  const used = (r: Row) => (r.instanceCpuMs.reduce((a, b) => a + b, 0) + r.postgresCpuMs + r.loaderCpuMs) / r.wallMs;
  const loader =
    LOADER === 'wrk'
      ? "wrk (Debian's, in C; one process per instance, bench/wrk/plays.lua makes each request)"
      : 'autocannon (in this Node process)';
  const plays = rows.filter((r) => r.setup.route !== 'health');
  const lines = [
    '## PostgreSQL',
    '',
    `\`npm run bench:postgres\`, ${new Date().toISOString().slice(0, 10)}, ${cores} × ${cpu}, Node ${process.version},`,
    `PostgreSQL on the same machine (\`synchronous_commit = on\`, fsync on: every acknowledged play is on disk).`,
    `Load generator: ${loader}; ${CONNECTIONS} connections split evenly over the instances, each player on one instance (a proxy`,
    `with session affinity), ${DURATION_S} s per`,
    `figure after a ${WARMUP_S} s warm-up, ${ROUNDS} rounds taken in turn (median run shown, with the range); ${PLAYERS} players, every request a new sale (fresh playId); 1 € only unless`,
    '"4 stakes" (1, 2, 3, 5 € in turn; "a stake each": the first instance sells 1 €, the second 2 €): one stake is one block cursor, a row that every sale of it locks.',
    "playIds are made as the game's client makes them (time-ordered UUIDv7). Baseline in the same run: one instance",
    'on SQLite (`synchronous = FULL`). Control: "HTTP only" rows load `GET /api/health` (same hooks and session check,',
    'no database work; their figure is requests/s), to show what the machine gives a second instance when no database',
    'shares the cores. CPU: utime + stime from /proc over the measured seconds, as a share of',
    'one core (instances each, all PostgreSQL processes together, the load generator). Waits: pg_stat_activity',
    `sampled every ${SAMPLE_MS} ms, the average number of play transactions waiting on a row lock, on the WAL`,
    'flush, or on their instance (idle in transaction: the instance computes the batch), or running.',
    `Load average before / after: ${loadBefore.map((l) => l.toFixed(1)).join(' ')} / ${loadAfter.map((l) => l.toFixed(1)).join(' ')}`,
    '(other work shares these cores).',
    '',
    '| setup | plays/s | range | ÷ ×1 | ÷ SQLite | p50 ms | p99 ms | CPU per instance | CPU PostgreSQL | CPU load gen | cores used | CPU ms / play | lock waits | WAL waits | on instance | plays / txn |',
    '| ----- | ------: | ----: | ---: | -------: | -----: | -----: | ---------------- | -------------: | -----------: | ---------: | ------------: | ---------: | --------: | ----------: | ----------: |',
    ...rows.map(
      (r) =>
        `| ${r.setup.label} | ${fmt(r.rps)} | ${r.range ? `${fmt(r.range[0])}–${fmt(r.range[1])}` : '—'} | ${ratio(r)} | ${r.setup.route === 'health' ? '—' : (r.rps / sqlite.rps).toFixed(2)} | ${ms(r.p50)} | ${ms(r.p99)} | ` +
        `${r.instanceCpuMs.map((v) => pct(v, r.wallMs)).join(' + ')} | ${pct(r.postgresCpuMs, r.wallMs)} | ${pct(r.loaderCpuMs, r.wallMs)} | ` +
        `${used(r).toFixed(2)} of ${cores} | ${cpuPerPlay(r).server.toFixed(3)} (${cpuPerPlay(r).all.toFixed(3)}) | ${r.waits ? r.waits.lock.toFixed(2) : '—'} | ${r.waits ? r.waits.walFlush.toFixed(2) : '—'} | ` +
        `${r.waits ? r.waits.onInstance.toFixed(2) : '—'} | ${r.playsPerTxn ? r.playsPerTxn.toFixed(1) : '—'} |`,
    ),
    '',
    `Target: 2 instances ≥ 1.3 × one instance on PostgreSQL: **${(pg2(oneStake).rps / oneStake.rps).toFixed(2)} ×** ` +
      `selling one stake, **${(pg2(fourStakes).rps / fourStakes.rps).toFixed(2)} ×** selling four (medians; ` +
      '"÷ ×1" compares with one instance of the same kind: same store, same stakes).' +
      (stakeEach
        ? ` With no cursor shared at all (each instance sells its own stake, so never waits for the other): **${(stakeEach.rps / oneStake.rps).toFixed(2)} ×** one instance selling one stake.`
        : '') +
      (health(2) && health(1)
        ? ` Control, no database work: 2 instances serve **${(health(2)!.rps / health(1)!.rps).toFixed(2)} ×** the requests of one.`
        : ''),
    'CPU ms / play (per request in the HTTP only rows): the instances and PostgreSQL together (in brackets: with the load generator). On two cores',
    'free of other work, the CPU alone would cap throughput near 2,000 ms/s ÷ that bracketed figure: ' +
      plays.map((r) => `${r.setup.label} ≈ ${fmt(2000 / cpuPerPlay(r).all)}`).join(', ') +
      ' plays/s.',
    `Errors or non-2xx answers during the measured runs: ${rows.reduce((n, r) => n + r.errors + r.non2xx, 0)}.`,
  ];
  // Keep the hand-written reading of the figures (### Reading …) below the table.
  await writeBenchmarkSection('## PostgreSQL', lines.join('\n') + '\n', true);
}

async function main(): Promise<void> {
  if (MACHINES) {
    const plan = quotaPlanFromEnv();
    machines = await setUpMachines(plan);
    console.log(`--machines: ${LOADER}; quotas: ${describePlanLine(plan)}`);
    console.log(
      `private PostgreSQL on port ${machines.postgres.port}; load average at start ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    try {
      await measureAll();
    } finally {
      machines.tearDown();
    }
    return;
  }
  if (!(await postgresReachable())) {
    console.error(`bench:postgres needs PostgreSQL at ${PG_TEST_URL} (set PG_TEST_URL): not reachable`);
    process.exit(1);
  }
  await measureAll();
}

async function measureAll(): Promise<void> {
  const loadBefore = os.loadavg();
  const runs = new Map<Setup, Row[]>(SETUPS.map((s) => [s, []]));
  // In turn, so that a burst of other work on the machine hits every setup alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const setup of SETUPS) {
      const row = await measure(setup);
      console.log(`round ${round + 1}/${ROUNDS}: ${describeRow(row)}`);
      runs.get(setup)!.push(row);
    }
  }
  const rows = SETUPS.map((setup) => {
    const sorted = [...runs.get(setup)!].sort((a, b) => a.rps - b.rps);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    return { ...median, range: [sorted[0]!.rps, sorted[sorted.length - 1]!.rps] as [number, number] };
  });
  if (ONLY) console.log('BENCH_ONLY: BENCHMARKS.md left as it is');
  else if (machines)
    await writeMachinesSection({
      rows,
      shares: GROUP_SHARES,
      plan: machines.plan,
      loader: LOADER,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
      rounds: ROUNDS,
      players: PLAYERS,
      sampleMs: SAMPLE_MS,
      loadBefore,
      loadAfter: os.loadavg(),
    });
  else await writeSection(rows, loadBefore, os.loadavg());
}

await main();

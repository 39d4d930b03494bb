import client from 'prom-client';
import { ERROR_CODES } from '../../contract/errorCodes.ts';
import { blockPayoutBasisPoints, STAKES_CENTS } from '../../rules/index.ts';
import type { LedgerAuditRecord } from '../ops/ledgerAuditRecord.ts';
import type { CommittedBatch, PlayBatchObserver } from '../store/batchObserver.ts';
import { BLOCK_POOLS, type BlockBook, type WalletBacklog, type WalletBook } from '../store/types.ts';
import { SupplySampler, supplyForecast, type SupplyForecast } from '../ops/supply.ts';

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Seconds: from a cached read (well under a millisecond) to a stalled database. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Plays per batch: one alone up to the PostgreSQL store's cap (256). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/** What the metrics read when Prometheus scrapes. */
export interface MetricSources {
  store: BlockBook & WalletBook;
  /** Whether sales are open now (the operator's setting or the dates). */
  salesOpen: () => boolean;
  /** Whether the configured dates alone say open. */
  salesScheduledOpen: () => boolean;
  /** Whether /api/health/ready would say ready. */
  ready: () => Promise<boolean>;
  /** The last ledger audit run beside this instance's data; null: none. */
  ledgerAudit: () => LedgerAuditRecord | null;
  clock: () => Date;
}

/**
 * One read shared by the gauges of a scrape: prom-client starts every gauge's collect in the
 * same tick, so they all join the read in flight; the next scrape reads again.
 */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () => {
    if (!inFlight) {
      const reading = read();
      inFlight = reading;
      reading.then(
        () => (inFlight = null),
        () => (inFlight = null),
      );
    }
    return inFlight;
  };
}

const seconds = (date: Date) => date.getTime() / 1000;

/**
 * The server's Prometheus metrics, in a registry of its own (so that several servers in
 * one process, as in the tests, never share counters). The store reports its play batches
 * through PlayBatchObserver; the HTTP layer calls `request` and `refusal`; the units left,
 * the supply, the sales window, readiness, the wallet's backlog and the last ledger audit
 * are read when Prometheus scrapes.
 */
export class ServerMetrics implements PlayBatchObserver {
  readonly registry = new client.Registry();
  private readonly playsSold: client.Counter<'stake_cents' | 'pool'>;
  private readonly stakesCents: client.Counter<'stake_cents' | 'pool'>;
  private readonly prizesCents: client.Counter<'stake_cents' | 'pool'>;
  private readonly supply = new SupplySampler();
  private readonly refusals: client.Counter<'code'>;
  private readonly requestSeconds: client.Histogram<'method' | 'route' | 'status'>;
  private readonly batchPlays: client.Histogram;
  private readonly batchCommitSeconds: client.Histogram;
  private readonly batchDurableSeconds: client.Histogram;
  private readonly demoPurged: client.Counter;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry });
    this.playsSold = new client.Counter({
      name: 'spincake_plays_sold_total',
      help: 'Units sold (plays committed; a replayed playId is not counted), per stake in cents and pool (real, demo)',
      labelNames: ['stake_cents', 'pool'],
      registers,
    });
    this.stakesCents = new client.Counter({
      name: 'spincake_stakes_cents_total',
      // Per pool: play money (demo) never counts in real sales (issue 28).
      help: 'Stakes of the units sold, in cents, per stake in cents and pool (real money or demo play money)',
      labelNames: ['stake_cents', 'pool'],
      registers,
    });
    this.prizesCents = new client.Counter({
      name: 'spincake_prizes_cents_total',
      help: 'Lots won by the units sold, in cents, per stake in cents and pool (real money or demo play money)',
      labelNames: ['stake_cents', 'pool'],
      registers,
    });
    this.refusals = new client.Counter({
      name: 'spincake_refusals_total',
      help: 'Error answers of the API, per error code',
      labelNames: ['code'],
      registers,
    });
    this.requestSeconds = new client.Histogram({
      name: 'spincake_http_request_duration_seconds',
      help: 'Time to answer a request, per method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.batchPlays = new client.Histogram({
      name: 'spincake_play_batch_size',
      help: 'Plays per group-committed batch',
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.batchCommitSeconds = new client.Histogram({
      name: 'spincake_play_batch_commit_seconds',
      help: 'A play batch transaction, from its start to its COMMIT',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.batchDurableSeconds = new client.Histogram({
      name: 'spincake_play_batch_flush_seconds',
      help: 'From a play batch’s commit until it is on disk (SQLite WAL fsync, PostgreSQL log flush)',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.demoPurged = new client.Counter({
      name: 'spincake_demo_players_purged_total',
      help: 'Demo players removed with their demo plays after DEMO_PLAYER_TTL_DAYS unused (by this instance’s purge)',
      registers,
    });
    const { store, salesOpen, salesScheduledOpen, ready, ledgerAudit, clock } = sources;
    const blocks = sharedRead(() => store.listBlocks());
    new client.Gauge({
      name: 'spincake_block_units_left',
      help: 'Units left in each open block, per stake in cents, pool and block id',
      labelNames: ['stake_cents', 'pool', 'block'],
      registers,
      async collect() {
        this.reset();
        for (const block of await blocks()) {
          if (block.status !== 'open') continue;
          this.set(
            { stake_cents: block.stakeCents, pool: block.pool, block: block.id.slice(0, 16) },
            block.count - block.nextPosition,
          );
        }
      },
    });
    const supply = this.supply;
    // One sample of the cursors per scrape, shared by the three gauges it gives.
    const supplyRows = sharedRead(async () => {
      const now = clock();
      const all = await blocks();
      const { sold, windowHours } = supply.sample(all, now);
      return supplyForecast(all, sold, windowHours, now, 0);
    });
    const perStakeAndPool = (name: string, help: string, value: (row: SupplyForecast) => number) =>
      new client.Gauge({
        name,
        help,
        labelNames: ['stake_cents', 'pool'],
        registers,
        async collect() {
          const rows = await supplyRows();
          this.reset();
          for (const row of rows) this.set({ stake_cents: row.stakeCents, pool: row.pool }, value(row));
        },
      });
    perStakeAndPool(
      'spincake_supply_hours',
      'Hours until the open and queued blocks run out at the last hour’s rate (+Inf while nothing sells)',
      (row) => row.hoursLeft,
    );
    perStakeAndPool(
      'spincake_units_on_sale',
      'Units left in the open and queued blocks, per stake in cents and pool',
      (row) => row.unitsLeft,
    );
    perStakeAndPool(
      'spincake_units_sold_per_hour',
      'Units sold per hour over the last hour (every instance’s: read from the block cursors)',
      (row) => row.unitsPerHour,
    );
    new client.Gauge({
      name: 'spincake_regulation_payout_ratio',
      help: 'The share of the stakes a block pays out by the regulation’s table (0.70), per stake in cents',
      labelNames: ['stake_cents'],
      registers,
      collect() {
        for (const stake of STAKES_CENTS) this.set({ stake_cents: stake }, blockPayoutBasisPoints(stake) / 10_000);
      },
    });
    new client.Gauge({
      name: 'spincake_sales_open',
      help: '1 while Article 1’s sales window is open on this instance, else 0',
      registers,
      collect() {
        this.set(salesOpen() ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'spincake_sales_scheduled_open',
      help: '1 while the configured dates (SALES_OPENS_AT, SALES_CLOSES_AT) say open, whatever the operator set',
      registers,
      collect() {
        this.set(salesScheduledOpen() ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'spincake_ready',
      help: '1 while GET /api/health/ready says ready, else 0',
      registers,
      async collect() {
        this.set((await ready()) ? 1 : 0);
      },
    });
    const backlog = sharedRead(() => store.walletBacklog());
    const age = (at: string | null) => (at === null ? 0 : Math.max(0, seconds(clock()) - seconds(new Date(at))));
    const fromBacklog = (name: string, help: string, value: (b: WalletBacklog) => number) =>
      new client.Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(value(await backlog()));
        },
      });
    fromBacklog(
      'spincake_wallet_outbox_pending',
      'Wins and rollbacks owed to the operator’s wallet, not answered yet (every instance’s: read from the database)',
      (b) => b.pendingOutbox,
    );
    fromBacklog(
      'spincake_wallet_outbox_oldest_age_seconds',
      'Age of the oldest win or rollback still owed to the operator’s wallet (0: none)',
      (b) => age(b.oldestPendingAt),
    );
    fromBacklog(
      'spincake_wallet_bets_without_outcome',
      'Bets sent to the operator’s wallet whose outcome is not known yet',
      (b) => b.betsWithoutOutcome,
    );
    fromBacklog(
      'spincake_wallet_bet_without_outcome_oldest_age_seconds',
      'Age of the oldest bet without an outcome (0: none)',
      (b) => age(b.oldestBetAt),
    );
    // No audit yet: no sample at all (a labelled gauge shows none), so that absent() says so
    // instead of a false 0.
    const fromAudit = (name: string, help: string, value: (record: LedgerAuditRecord) => number) =>
      new client.Gauge({
        name,
        help: `${help}, per database audited`,
        labelNames: ['database'],
        registers,
        collect() {
          const record = ledgerAudit();
          this.reset();
          if (record) this.set({ database: record.database }, value(record));
        },
      });
    fromAudit(
      'spincake_ledger_audit_ok',
      '1 when the last ledger audit found the books right, 0 when it failed (absent: never run here)',
      (record) => (record.ok ? 1 : 0),
    );
    fromAudit(
      'spincake_ledger_audit_last_run_timestamp_seconds',
      'When the last `npm run audit:ledger` beside this instance’s data finished',
      (record) => seconds(new Date(record.finishedAt)),
    );
    fromAudit('spincake_ledger_audit_problems', 'Problems the last ledger audit found', (record) => record.problems);
    // Every stake (of each pool) shows from the start (at 0), so that rate() sees the first sale.
    for (const stake of STAKES_CENTS) {
      for (const pool of BLOCK_POOLS) {
        for (const counter of [this.playsSold, this.stakesCents, this.prizesCents])
          counter.inc({ stake_cents: stake, pool }, 0);
      }
    }
  }

  committed(batch: CommittedBatch): void {
    this.batchPlays.observe(batch.plays);
    this.batchCommitSeconds.observe(batch.commitSeconds);
    for (const { stakeCents, pool, count, wonCents } of batch.sold) {
      this.playsSold.inc({ stake_cents: stakeCents, pool }, count);
      this.stakesCents.inc({ stake_cents: stakeCents, pool }, count * stakeCents);
      this.prizesCents.inc({ stake_cents: stakeCents, pool }, wonCents);
    }
  }

  demoPlayersPurged(count: number): void {
    this.demoPurged.inc(count);
  }

  durable(seconds: number): void {
    this.batchDurableSeconds.observe(seconds);
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.requestSeconds.observe({ method, route, status }, seconds);
  }

  /** An error answer; a code outside the contract's list counts as OTHER (labels stay few). */
  refusal(code: string): void {
    this.refusals.inc({ code: KNOWN_CODES.has(code) ? code : 'OTHER' });
  }
}

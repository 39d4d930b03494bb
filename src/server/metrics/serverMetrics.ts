import client from 'prom-client';
import { ERROR_CODES } from '../../contract/errorCodes.ts';
import { STAKES_CENTS } from '../../rules/index.ts';
import type { PlayBatchObserver, SoldCount } from '../store/batchObserver.ts';
import { BLOCK_POOLS, type Store } from '../store/types.ts';

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Seconds: from a cached read (well under a millisecond) to a stalled database. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Plays per batch: one alone up to the PostgreSQL store's cap (256). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/**
 * The server's Prometheus metrics, in a registry of its own (so that several servers in
 * one process, as in the tests, never share counters). The store reports its play batches
 * through PlayBatchObserver; the HTTP layer calls `request` and `refusal`; the units left
 * and the sales window are read when Prometheus scrapes.
 */
export class ServerMetrics implements PlayBatchObserver {
  readonly registry = new client.Registry();
  private readonly playsSold: client.Counter<'stake_cents' | 'pool'>;
  private readonly refusals: client.Counter<'code'>;
  private readonly requestSeconds: client.Histogram<'method' | 'route' | 'status'>;
  private readonly batchPlays: client.Histogram;
  private readonly batchCommitSeconds: client.Histogram;
  private readonly batchDurableSeconds: client.Histogram;

  constructor(sources: { store: Store; salesOpen: () => boolean }) {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry });
    this.playsSold = new client.Counter({
      name: 'spincake_plays_sold_total',
      help: 'Units sold (plays committed; a replayed playId is not counted), per stake in cents and pool (real, demo)',
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
    const { store, salesOpen } = sources;
    new client.Gauge({
      name: 'spincake_block_units_left',
      help: 'Units left in each open block, per stake in cents, pool and block id',
      labelNames: ['stake_cents', 'pool', 'block'],
      registers,
      async collect() {
        this.reset();
        for (const block of await store.listBlocks()) {
          if (block.status !== 'open') continue;
          this.set(
            { stake_cents: block.stakeCents, pool: block.pool, block: block.id.slice(0, 16) },
            block.count - block.nextPosition,
          );
        }
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
    // Every stake of each pool shows from the start (at 0), so that rate() sees the first sale.
    for (const pool of BLOCK_POOLS) {
      for (const stake of STAKES_CENTS) this.playsSold.inc({ stake_cents: stake, pool }, 0);
    }
  }

  committed(batch: { plays: number; sold: readonly SoldCount[]; commitSeconds: number }): void {
    this.batchPlays.observe(batch.plays);
    this.batchCommitSeconds.observe(batch.commitSeconds);
    for (const { stakeCents, pool, count } of batch.sold) this.playsSold.inc({ stake_cents: stakeCents, pool }, count);
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

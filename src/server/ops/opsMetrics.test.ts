import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayResponse } from '../../contract/api.ts';
import { STAKES_CENTS } from '../../rules/index.ts';
import { writeLedgerAuditRecord } from './ledgerAuditRecord.ts';
import { call, demoSession, newPlayId, startTestServer, type TestServer } from '../testing/harness.ts';
import { sample, scrape } from '../testing/metricsText.ts';
import { testBook } from '../testing/testBook.ts';

describe('the metrics operations alert on', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0' });
  });
  afterAll(() => server?.close());

  it('supply, stakes and lots, the regulation’s rate, readiness, the calendar, the wallet, the ledger audit', async () => {
    const first = await scrape(server);
    expect(sample(first, 'spincake_ready')).toBe(1);
    expect(sample(first, 'spincake_sales_scheduled_open')).toBe(1);
    for (const stake of STAKES_CENTS) {
      expect(sample(first, 'spincake_regulation_payout_ratio', `stake_cents="${stake}"`)).toBe(0.7);
    }
    expect(sample(first, 'spincake_units_on_sale', 'stake_cents="100",pool="demo"')).toBe(2_000_000);
    expect(sample(first, 'spincake_supply_hours', 'stake_cents="100",pool="demo"')).toBe(Infinity);
    expect(sample(first, 'spincake_wallet_outbox_pending')).toBe(0);
    expect(sample(first, 'spincake_wallet_outbox_oldest_age_seconds')).toBe(0);
    expect(sample(first, 'spincake_wallet_bets_without_outcome')).toBe(0);
    // Never audited here: no sample (absent() in the alert), not a false 0.
    expect(first).not.toMatch(/^spincake_ledger_audit_ok/m);

    const { token } = await demoSession(server.url);
    let won = 0;
    for (let i = 0; i < 6; i++) {
      const reply = await call<PlayResponse>(server.url, 'POST', '/api/plays', {
        token,
        body: { stakeCents: 100, playId: newPlayId() },
      });
      expect(reply.status).toBe(200);
      won += reply.body.play.winCents;
    }
    const finishedAt = new Date();
    writeLedgerAuditRecord(
      server.dataDir,
      'sqlite',
      { ok: false, problems: ['one', 'two'], plays: 6, blocks: 5, players: 1 },
      new Date(finishedAt.getTime() - 1500),
      finishedAt,
    );

    const after = await scrape(server);
    // Demo plays (this test's) count as play money, apart from the real sales.
    expect(sample(after, 'spincake_stakes_cents_total', 'stake_cents="100",pool="demo"')).toBe(600);
    expect(sample(after, 'spincake_prizes_cents_total', 'stake_cents="100",pool="demo"')).toBe(won);
    expect(sample(after, 'spincake_stakes_cents_total', 'stake_cents="100",pool="real"')).toBe(0);
    expect(sample(after, 'spincake_prizes_cents_total', 'stake_cents="100",pool="real"')).toBe(0);
    expect(sample(after, 'spincake_units_on_sale', 'stake_cents="100",pool="demo"')).toBe(2_000_000 - 6);
    const perHour = sample(after, 'spincake_units_sold_per_hour', 'stake_cents="100",pool="demo"')!;
    expect(perHour).toBeGreaterThan(0);
    expect(sample(after, 'spincake_supply_hours', 'stake_cents="100",pool="demo"')).toBeCloseTo(
      (2_000_000 - 6) / perHour,
      3,
    );
    expect(sample(after, 'spincake_supply_hours', 'stake_cents="200",pool="demo"')).toBe(Infinity);
    const sqlite = 'database="sqlite"';
    expect(sample(after, 'spincake_ledger_audit_ok', sqlite)).toBe(0);
    expect(sample(after, 'spincake_ledger_audit_problems', sqlite)).toBe(2);
    expect(sample(after, 'spincake_ledger_audit_last_run_timestamp_seconds', sqlite)).toBe(finishedAt.getTime() / 1000);

    for (const stake of STAKES_CENTS) await testBook(server.store).closeBlocksOfStake(stake);
    const soldOut = await scrape(server);
    expect(sample(soldOut, 'spincake_ready')).toBe(0);
    expect(sample(soldOut, 'spincake_supply_hours', 'stake_cents="100",pool="demo"')).toBe(0);
  });
});

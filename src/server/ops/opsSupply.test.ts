import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { StakeCents } from '../../rules/index.ts';
import { readLedgerAuditRecord } from './ledgerAuditRecord.ts';
import { SqliteStore } from '../store/sqlite/sqliteStore.ts';
import type { BlockRecord } from '../store/types.ts';
import { SupplySampler, supplyForecast, unitsSoldByCursor, type SupplyForecast } from './supply.ts';
import { testLibrary } from '../testing/blockCache.ts';
import { addTestBlocks, newPlayId, tempDataDir } from '../testing/harness.ts';
import { runOps } from '../testing/opsCli.ts';
import { testBook } from '../testing/testBook.ts';

const ops = runOps;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;

function block(id: string, stakeCents: StakeCents, nextPosition: number, status: BlockRecord['status']): BlockRecord {
  return { id, stakeCents, pool: 'real', filePath: `/blocks/${id}`, count: 1_000_000, nextPosition, status };
}

describe('block supply', () => {
  it('says when the open and queued blocks run out at the rate given, and how many blocks to load', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const blocks = [
      block('a', 100, 1_000_000, 'closed'),
      block('b', 100, 400_000, 'open'),
      block('c', 100, 0, 'queued'),
      block('d', 500, 10, 'open'),
    ];
    // 1 €: 50,000 an hour (measured over two hours); 5 €: nothing sold.
    const rows = supplyForecast(
      blocks,
      new Map([
        ['100/real', 100_000],
        ['500/real', 0],
      ]),
      2,
      now,
      7,
    );
    const oneEuro = rows.find((r) => r.stakeCents === 100)!;
    expect(oneEuro).toMatchObject({ pool: 'real', unitsLeft: 1_600_000, blocksOnSale: 2, unitsPerHour: 50_000 });
    expect(oneEuro.hoursLeft).toBe(32);
    expect(oneEuro.runsOutAt?.toISOString()).toBe('2026-12-02T20:00:00.000Z');
    // 7 days at 50,000 an hour = 8,400,000 units; 1,600,000 on hand: 6.8 blocks more, so 7.
    expect(oneEuro.blocksToLoad).toBe(7);
    const fiveEuro = rows.find((r) => r.stakeCents === 500)!;
    expect(fiveEuro).toMatchObject({ unitsLeft: 999_990, unitsPerHour: 0, hoursLeft: Infinity, runsOutAt: null });
    expect(fiveEuro.blocksToLoad).toBe(0);
  });

  it('keeps a block’s own pool apart once its record has one', () => {
    const demo = { ...block('e', 200, 0, 'open'), pool: 'demo' } as BlockRecord;
    const rows = supplyForecast([block('f', 200, 0, 'open'), demo], new Map(), 1, new Date(), 1);
    expect(rows.map((r: SupplyForecast) => `${r.stakeCents}/${r.pool}`)).toEqual(['200/demo', '200/real']);
  });

  it('measures the last hour’s sales from the block cursors sampled, a block loaded meanwhile included', () => {
    const sampler = new SupplySampler();
    const t0 = Date.parse('2026-12-01T10:00:00Z');
    expect(sampler.sample([block('b', 100, 1000, 'open')], new Date(t0)).windowHours).toBe(0);
    // Half an hour later: 500 more sold from b.
    let seen = sampler.sample([block('b', 100, 1500, 'open')], new Date(t0 + HOUR / 2));
    expect(seen.windowHours).toBe(0.5);
    expect(seen.sold.get('100/real')).toBe(500);
    // Two hours in: 200 more from b, and a block c loaded meanwhile sold 200.
    seen = sampler.sample([block('b', 100, 1700, 'open'), block('c', 100, 200, 'queued')], new Date(t0 + 2 * HOUR));
    // The window starts at the newest sample at least an hour old (t0 + 30 min).
    expect(seen.windowHours).toBe(1.5);
    expect(seen.sold.get('100/real')).toBe(400);
    expect(unitsSoldByCursor([block('b', 100, 1700, 'open'), block('c', 100, 200, 'queued')]).get('100/real')).toBe(
      1900,
    );
  });
});

describe('npm run ops -- supply, and the ledger audit’s kept result', () => {
  it('reads the last hour’s plays per stake from the database', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const store = SqliteStore.open(dataDir, await testLibrary());
    try {
      // The first five test blocks sold for real money here (a portal player's own ledger).
      await addTestBlocks(store, ['demo'], () => 'real');
      const player = await store.ensurePortalPlayer('portal-supply', new Date());
      await testBook(store).setBalance(player.id, 10_000_000, new Date());
      const buy = async (stakeCents: StakeCents, n: number, now: Date) => {
        for (let i = 0; i < n; i++) {
          const result = await store.buyPlay({
            playerId: player.id,
            playId: newPlayId(),
            stakeCents,
            pool: 'real',
            salesOpen: true,
            now,
          });
          expect(result.ok).toBe(true);
        }
      };
      await buy(100, 50, new Date(Date.now() - 2 * HOUR)); // outside the last hour
      await buy(100, 30, new Date(Date.now() - HOUR / 2));
      await buy(200, 12, new Date());
    } finally {
      await store.close();
    }
    const result = ops({ DATA_DIR: dataDir }, 'supply', '--days', '3', '--json');
    expect(result.status, result.stderr).toBe(0);
    const rows = JSON.parse(result.stdout) as SupplyForecast[];
    const oneEuro = rows.find((r) => r.stakeCents === 100)!;
    expect(oneEuro).toMatchObject({ pool: 'real', unitsPerHour: 30, unitsLeft: 2_000_000 - 80, blocksOnSale: 2 });
    expect(oneEuro.hoursLeft).toBeCloseTo((2_000_000 - 80) / 30, 6);
    expect(rows.find((r) => r.stakeCents === 200)).toMatchObject({ unitsPerHour: 12, unitsLeft: 1_000_000 - 12 });
    expect(rows.find((r) => r.stakeCents === 500)).toMatchObject({ unitsPerHour: 0, blocksToLoad: 0 });
    const text = ops({ DATA_DIR: dataDir }, 'supply');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^1 € real: 1999920 units left in 2 open\/queued block\(s\); 30 sold in the last hour; run out in 66664\.0 h/m,
    );

    expect(readLedgerAuditRecord(dataDir)).toBeNull();
    const audit = ops({ DATA_DIR: dataDir }, 'audit-ledger');
    expect(audit.status, audit.stdout + audit.stderr).toBe(0);
    expect(readLedgerAuditRecord(dataDir)).toMatchObject({ ok: true, problems: 0, plays: 92 });
  });
});

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlayResponse } from '../../contract/api.ts';
import { blockLotTable, formatCents, type StakeCents } from '../../rules/index.ts';
import { salesReport, type StakeReport } from './salesReport.ts';
import { SQLITE_FILE_NAME, SqliteStore } from '../store/sqlite/sqliteStore.ts';
import { testBlocks, testLibrary } from '../testing/blockCache.ts';
import { addTestBlocks, build, call, demoSession, newPlayId, tempDataDir } from '../testing/harness.ts';
import { runOps } from '../testing/opsCli.ts';
import { testBook } from '../testing/testBook.ts';

const ops = runOps;

const dirs: string[] = [];
function newDir(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run ops -- report', () => {
  it('shows each stake’s blocks, units sold and left, lots by tier next to the table, payout so far', async () => {
    const dataDir = newDir();
    const store = SqliteStore.open(dataDir, await testLibrary());
    const sold = { 100: 300, 200: 40 } as Record<StakeCents, number>;
    try {
      // The first five test blocks sold for real money here, the four others as demo blocks.
      await addTestBlocks(store, ['demo', 'real'], (_cached, index) => (index < 5 ? 'real' : 'demo'));
      const player = await store.ensurePortalPlayer('portal-reporter', new Date());
      await testBook(store).setBalance(player.id, 10_000_000, new Date());
      const demoPlayer = await store.createDemoPlayer(10_000_000, new Date());
      const buy = (playerId: string, stakeCents: StakeCents, pool: 'real' | 'demo') =>
        store.buyPlay({ playerId, playId: newPlayId(), stakeCents, pool, salesOpen: true, now: new Date() });
      for (const [stake, n] of Object.entries(sold)) {
        const results = await Promise.all(
          Array.from({ length: n }, () => buy(player.id, Number(stake) as StakeCents, 'real')),
        );
        expect(results.every((r) => r.ok)).toBe(true);
      }
      // Demo play is counted in none of it: listed apart.
      const demo = await Promise.all(Array.from({ length: 50 }, () => buy(demoPlayer.id, 100, 'demo')));
      expect(demo.every((r) => r.ok)).toBe(true);
      const report = salesReport(await store.listBlocks(), await store.soldLots());

      // What the block files hold at the sold positions, counted apart from the report.
      const [oneEuro, oneEuroNext, twoEuro] = (await testBlocks()).map((b) => b.block);
      const expectedFor = (stake: StakeCents, block: NonNullable<typeof oneEuro>, n: number) => {
        const byLot = new Map<number, number>();
        let payout = 0;
        for (let p = 0; p < n; p++) {
          const lot = block.lotCentsAt(p);
          byLot.set(lot, (byLot.get(lot) ?? 0) + 1);
          payout += lot;
        }
        return { byLot, payout, table: blockLotTable(stake) };
      };
      const check = (line: StakeReport, stake: StakeCents, block: NonNullable<typeof oneEuro>) => {
        const n = sold[stake]!;
        const { byLot, payout, table } = expectedFor(stake, block, n);
        expect(line.unitsSold).toBe(n);
        expect(line.payoutCents).toBe(payout);
        expect(line.stakesCents).toBe(n * stake);
        expect(line.lots.map((l) => [l.lotCents, l.sold])).toEqual(
          table.map((row) => [row.lotCents, byLot.get(row.lotCents) ?? 0]),
        );
        for (const [i, row] of table.entries()) {
          expect(line.lots[i]!.perBlock).toBe(row.count);
          expect(line.lots[i]!.expectedTenths).toBe(Math.round((row.count * n * 10) / 1_000_000));
        }
      };
      const [r100, r200, r300, r500] = report;
      check(r100!, 100, oneEuro!);
      check(r200!, 200, twoEuro!);
      expect(r100!.blocks.map((b) => [b.id, b.status, b.sold, b.left])).toEqual([
        [oneEuro!.id, 'open', 300, 1_000_000 - 300],
        [oneEuroNext!.id, 'queued', 0, 1_000_000],
      ]);
      expect(r100!.unitsLeft).toBe(2_000_000 - 300);
      // 137 050 lots of 1 € per block: 41,1 for 300 units sold.
      expect(r100!.lots.find((l) => l.lotCents === 100)!.expectedTenths).toBe(411);
      expect(r300!.unitsSold).toBe(0);
      expect(r500!.payoutCents).toBe(0);
      expect(r100!.demo).toMatchObject({ unitsSold: 50, unitsLeft: 1_000_000 - 50 });
      expect(r100!.demo.blocks.map((b) => [b.pool, b.sold])).toEqual([['demo', 50]]);
    } finally {
      await store.close();
    }

    const text = ops({ DATA_DIR: dataDir }, 'report');
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('1\u00a0€: 300 sold, 1\u00a0999\u00a0700 left, 2 blocks');
    expect(text.stdout).toContain('2\u00a0€: 40 sold');
    expect(text.stdout).toMatch(/ 1\u00a0€ +\d+ +41,1 +137\u00a0050/);
    const json = JSON.parse(ops({ DATA_DIR: dataDir }, 'report', '--json').stdout) as StakeReport[];
    expect(text.stdout).toContain(`payout so far ${formatCents(json[0]!.payoutCents)}`);
    expect(json.map((s) => s.unitsSold)).toEqual([300, 40, 0, 0]);
    expect(text.stdout).toContain('demo pool (play money, not counted above): 50 sold');
  });
});

describe('npm run ops -- backup', () => {
  it('copies the database while plays go on; the copy restores and passes audit:ledger', async () => {
    const server = await build({ RATE_LIMIT_PER_MINUTE: '1000000' });
    const backupDir = newDir();
    const backup = path.join(backupDir, 'copy.sqlite');
    let stop = false;
    let acknowledged = 0;
    try {
      const clients = await Promise.all(Array.from({ length: 4 }, () => demoSession(server.app)));
      const selling = clients.map(async ({ token }) => {
        while (!stop) {
          const reply = await call<PlayResponse>(server.app, 'POST', '/api/plays', {
            token,
            body: { stakeCents: 100, playId: newPlayId() },
          });
          if (reply.status === 200) acknowledged++;
          else if (reply.status !== 402) throw new Error(`play answered ${reply.status}`);
        }
      });
      while (acknowledged < 20) await new Promise((resolve) => setTimeout(resolve, 10));
      // The CLI runs in its own process while this one keeps selling.
      const soldBefore = acknowledged;
      const result = await spawnAsync({ DATA_DIR: server.dataDir }, 'backup', backup);
      const soldAfter = acknowledged;
      stop = true;
      await Promise.all(selling);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /^backed up to .*copy\.sqlite: \d+ bytes, \d+ plays, schema version 8, integrity ok/,
      );
      const playsInCopy = Number(/, (\d+) plays,/.exec(result.stdout)![1]);
      // Taken while the server sold: plays were answered before, during and after it.
      expect(playsInCopy).toBeGreaterThanOrEqual(soldBefore);
      expect(playsInCopy).toBeLessThanOrEqual(soldAfter + clients.length);
      expect(soldAfter).toBeGreaterThan(soldBefore);

      // A second backup never overwrites the first.
      const again = ops({ DATA_DIR: server.dataDir }, 'backup', backup);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('exists already');
    } finally {
      stop = true;
      await server.close();
    }

    // Restored into an empty data directory (the block files stay where the database names them).
    const restored = newDir();
    fs.copyFileSync(backup, path.join(restored, SQLITE_FILE_NAME));
    const audit = ops({ DATA_DIR: restored }, 'audit-ledger');
    expect(audit.stdout).toMatch(/ledger OK: \d+ plays/);
    expect(audit.status).toBe(0);
  });
});

/** The CLI in a child process, without blocking this one (plays keep being answered meanwhile). */
function spawnAsync(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/ops/cli.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

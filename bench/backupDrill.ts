/**
 * `npm run bench:backup -- [--plays N]`: the backup and restore drill of docs/operations.md,
 * timed. A SQLite database with N plays (default 1,000,000: sold through the store, 1,000
 * players, the four stakes in turn), then, as an operator would, each step by its command:
 * `npm run ops -- backup FILE` while nothing else runs, the restore (the backup copied over a
 * fresh DATA_DIR's database, no -wal or -shm), and `npm run audit:ledger` on the restored copy.
 * Prints each step's wall time and the files' sizes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { STAKES_CENTS } from '../src/rules/index.ts';
import { SQLITE_FILE_NAME, SqliteStore } from '../src/server/store/sqlite/sqliteStore.ts';
import { testLibrary } from '../src/server/testing/blockCache.ts';
import { addTestBlocks, newPlayId, tempDataDir } from '../src/server/testing/harness.ts';

const { values } = parseArgs({ options: { plays: { type: 'string', default: '1000000' } } });
const PLAYS = Number(values.plays);
const PLAYERS = 1000;
/** Plays in flight at once: the store group-commits them. */
const IN_FLIGHT = 512;

function timed<T>(label: string, work: () => T): T {
  const started = performance.now();
  const result = work();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function ops(dataDir: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/ops/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`ops ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout.trim();
}

const mib = (file: string) => `${(fs.statSync(file).size / 2 ** 20).toFixed(0)} MiB`;

const live = tempDataDir();
const restored = tempDataDir();
try {
  const started = performance.now();
  const store = SqliteStore.open(live, await testLibrary());
  await addTestBlocks(store);
  const players: string[] = [];
  for (let i = 0; i < PLAYERS; i++) players.push((await store.createDemoPlayer(10_000_000, new Date())).id);
  let sold = 0;
  while (sold < PLAYS) {
    const batch = Math.min(IN_FLIGHT, PLAYS - sold);
    const results = await Promise.all(
      Array.from({ length: batch }, (_, i) =>
        store.buyPlay({
          playerId: players[(sold + i) % PLAYERS]!,
          playId: newPlayId(),
          stakeCents: STAKES_CENTS[(sold + i) % STAKES_CENTS.length]!,
          pool: 'demo',
          salesOpen: true,
          now: new Date(),
        }),
      ),
    );
    if (!results.every((r) => r.ok)) throw new Error('a play was refused');
    sold += batch;
    if (sold % 100_000 < IN_FLIGHT) console.log(`  ${sold} plays sold`);
  }
  await store.close();
  console.log(`database of ${PLAYS} plays made in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(`live database: ${mib(path.join(live, SQLITE_FILE_NAME))}`);

  const backup = path.join(live, 'drill-backup.sqlite');
  console.log(timed('npm run ops -- backup', () => ops(live, 'backup', backup)).split('\n')[0]);
  console.log(`backup file: ${mib(backup)}`);
  timed('restore (copy the backup in place, no -wal/-shm)', () => {
    for (const suffix of ['-wal', '-shm']) fs.rmSync(path.join(restored, SQLITE_FILE_NAME + suffix), { force: true });
    fs.copyFileSync(backup, path.join(restored, SQLITE_FILE_NAME));
  });
  console.log(timed('npm run audit:ledger on the restored copy', () => ops(restored, 'audit-ledger')));
} finally {
  fs.rmSync(live, { recursive: true, force: true });
  fs.rmSync(restored, { recursive: true, force: true });
}

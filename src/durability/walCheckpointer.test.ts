import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from './walCheckpointer.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function database(): { file: string; db: Database.Database } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-checkpoint-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // No automatic checkpoint: whatever is copied here is the worker's doing.
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  return { file, db };
}

const fill = (db: Database.Database, rows: number) => {
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run('x'.repeat(500));
  })();
};

describe('WalCheckpointer', () => {
  it('copies the log into the database from its own thread, so the writer starts the log over', async () => {
    const { file, db } = database();
    // A timer too slow to fire here: only the checkpoints asked for run.
    const checkpointer = new WalCheckpointer(file, { everyMs: 3_600_000 });
    try {
      fill(db, 2000);
      const grown = fs.statSync(`${file}-wal`).size;
      const result = await checkpointer.checkpointNow();
      expect(result.log).toBeGreaterThan(200);
      expect(result.checkpointed).toBe(result.log);
      // The next commits reuse the log from its start instead of growing it.
      for (let i = 0; i < 3; i++) fill(db, 100);
      expect(fs.statSync(`${file}-wal`).size).toBe(grown);
      const reader = new Database(file, { readonly: true });
      expect(reader.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2300 });
      reader.close();
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('checkpoints on its timer without being asked, and stops', async () => {
    const { file, db } = database();
    const checkpointer = new WalCheckpointer(file, { everyMs: 20 });
    try {
      fill(db, 1000);
      const walSize = () => fs.statSync(`${file}-wal`).size;
      // Without a checkpoint every write appends to the log; once the timer has copied it, the
      // writer starts it over and the same write leaves its size as it was.
      await expect
        .poll(
          () => {
            const before = walSize();
            fill(db, 20);
            return walSize() === before;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(true);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });
});

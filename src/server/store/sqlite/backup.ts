import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface BackupSummary {
  file: string;
  bytes: number;
  plays: number;
  schemaVersion: number;
}

/**
 * A consistent copy of a live SQLite database: `VACUUM INTO` reads one snapshot in a read
 * transaction (in WAL mode the server's commits go on meanwhile) and writes it, compacted,
 * to a new file; the copy is fsynced, renamed into place, then checked (integrity_check).
 * An existing file is never overwritten.
 */
export function backupSqliteDatabase(source: string, target: string): BackupSummary {
  if (!fs.existsSync(source)) throw new Error(`no SQLite database at ${source}`);
  if (fs.existsSync(target)) throw new Error(`${target} exists already: back up to a new file`);
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.partial-${process.pid}`);
  fs.rmSync(partial, { force: true });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(partial);
  } finally {
    db.close();
  }
  try {
    const fd = fs.openSync(partial, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, target);
    const dir = fs.openSync(path.dirname(target), 'r');
    try {
      fs.fsyncSync(dir);
    } finally {
      fs.closeSync(dir);
    }
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`the copy ${target} fails integrity_check: ${String(integrity)}`);
    const { plays } = copy.prepare('SELECT COUNT(*) AS plays FROM plays').get() as { plays: number };
    const { version } = copy.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as {
      version: number;
    };
    return { file: target, bytes: fs.statSync(target).size, plays, schemaVersion: version };
  } finally {
    copy.close();
  }
}

import fs from 'node:fs';

/**
 * The data directory holds every future unit in clear (block files), the books and the
 * session keys: nobody but the server's user may read it. Created 0700; its files 0600.
 */
export function ensurePrivateDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Creates `file` empty with mode 0600 if it is not there (SQLite's -wal and -shm then take its mode). */
export function createPrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Whether anyone but the owner may read, write or enter it. */
export function openToOthers(file: string): boolean {
  return (fs.statSync(file).mode & 0o077) !== 0;
}

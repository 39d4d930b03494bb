import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { BlockFileError, decodeBlock, type Block } from './block.ts';

function ioMessage(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a parent is not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return e.code ?? String(e.message).split('\n')[0] ?? 'unknown error';
  }
}

/**
 * Writes `bytes` to `path` so that no reader ever sees a half-written file: a temp file
 * in the same directory, fsync, rename over the target, fsync of the directory.
 * On any failure the temp file is removed and a one-line BlockFileError is thrown.
 */
export function writeFileAtomically(path: string, write: (fd: number) => void): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    // 0600: a block file holds every future unit in clear.
    fd = openSync(temp, 'wx', 0o600);
    write(fd);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // The temp file was never created.
    }
    if (error instanceof BlockFileError) throw error;
    throw new BlockFileError(`cannot write ${path}: ${ioMessage(error)}`);
  }
  try {
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some file systems refuse to fsync a directory; the rename itself is still atomic.
  }
}

export function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** Writes a block file atomically (see writeFileAtomically); rejects with a one-line BlockFileError. */
export async function writeBlockFile(path: string, block: Block): Promise<void> {
  writeFileAtomically(path, (fd) => writeAll(fd, block.fileBytes()));
}

export function readBlockFile(path: string): Block {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new BlockFileError(`cannot read ${path}: ${ioMessage(error)}`);
  }
  return decodeBlock(bytes);
}

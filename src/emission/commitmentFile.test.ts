import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commitBlock } from './commitment.ts';
import { commitmentFilePath, readCommitmentFile, writeCommitmentFile } from './commitmentFile.ts';
import { generateBlock } from './generate.ts';

/**
 * Every fsync and rename the emission code makes, in order, each fsync named by the path its
 * descriptor is open on (Linux's /proc/self/fd): the real calls are made, only observed.
 */
const calls = vi.hoisted(() => [] as string[]);
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const fsyncSync = (fd: number) => {
    calls.push(`fsync ${real.readlinkSync(`/proc/self/fd/${fd}`)}`);
    real.fsyncSync(fd);
  };
  const renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    calls.push(`rename ${String(from)} ${String(to)}`);
    real.renameSync(from, to);
  };
  return { ...real, default: { ...real, fsyncSync, renameSync }, fsyncSync, renameSync };
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  calls.length = 0;
});

describe('the commitment kept beside a block file', () => {
  it.skipIf(process.platform !== 'linux')(
    'is fsynced before its rename, and its directory after, like the block file',
    () => {
      const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-commitment-')));
      dirs.push(dir);
      const block = generateBlock({ stakeCents: 200, seedHex: 'c0ffee', count: 70 });
      const blockFile = path.join(dir, 'b.block');
      const commitment = commitBlock(block);
      writeCommitmentFile(blockFile, block.id, commitment);

      const target = commitmentFilePath(blockFile);
      const rename = calls.findIndex((call) => call.startsWith('rename ') && call.endsWith(` ${target}`));
      expect(rename, calls.join('\n')).toBeGreaterThan(0);
      const temporary = calls[rename]!.split(' ')[1]!;
      expect(path.dirname(temporary)).toBe(dir);
      // The bytes are on disk before the name points at them, and the name after.
      expect(calls.slice(0, rename)).toContain(`fsync ${temporary}`);
      expect(calls.slice(rename + 1)).toContain(`fsync ${dir}`);
      expect(fs.readdirSync(dir).sort()).toEqual(['b.block.commitment']);
      // And what a restart reads back is that commitment.
      expect(readCommitmentFile(blockFile, block.id, 70)?.root).toBe(commitment.root);
    },
  );
});

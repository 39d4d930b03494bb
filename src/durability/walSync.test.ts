import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FlushTrigger, WalSync } from './walSync.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-walsync-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function walFile(name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'frames');
  return file;
}

describe('WalSync', () => {
  it('does not fsync when nothing was committed', async () => {
    const wal = new WalSync(walFile('a'));
    await wal.durable();
    expect(wal.fsyncs).toBe(0);
    wal.close();
  });

  it('covers every commit made before an fsync starts with that one fsync', async () => {
    const wal = new WalSync(walFile('b'));
    wal.committed();
    wal.committed();
    wal.committed();
    await Promise.all([wal.durable(), wal.durable(), wal.durable()]);
    expect(wal.fsyncs).toBe(1);
    await wal.durable();
    expect(wal.fsyncs).toBe(1);
    wal.close();
  });

  it('makes a commit made during an fsync wait for the next one', async () => {
    const wal = new WalSync(walFile('c'));
    wal.committed();
    let firstDone = false;
    const first = wal.durable().then(() => (firstDone = true));
    wal.committed(); // while the first fsync is in flight
    const second = wal.durable().then(() => {
      expect(firstDone).toBe(true);
      return wal.fsyncs;
    });
    await first;
    expect(await second).toBe(2);
    wal.close();
  });

  it('holds work queued during an fsync until it ends, then runs it before the next starts', async () => {
    const wal = new WalSync(walFile('d'));
    const order: string[] = [];
    wal.whenSynced(() => order.push('idle: at once'));
    wal.committed();
    const first = wal.durable().then(() => order.push('first durable'));
    expect(wal.syncing).toBe(true);
    wal.whenSynced(() => {
      order.push('queued work');
      // After the first fsync, before the second.
      expect(wal.fsyncs).toBe(1);
      expect(wal.syncing).toBe(false);
      wal.committed();
      void wal.durable().then(() => order.push('second durable'));
    });
    await first;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await wal.durable();
    // The first fsync's waiters are released before the queued work runs (their callbacks run a microtask later).
    expect(order).toEqual(['idle: at once', 'queued work', 'first durable', 'second durable']);
    expect(wal.fsyncs).toBe(2);
    wal.close();
  });

  it('refuses everything once the log cannot be synced', async () => {
    const wal = new WalSync(path.join(dir, 'missing', 'wal'));
    wal.committed();
    await expect(wal.durable()).rejects.toThrow(/cannot make the database durable/);
    await expect(wal.durable()).rejects.toThrow(/cannot make the database durable/);
  });
});

describe('FlushTrigger', () => {
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('runs the flush once for every request of one turn, after that turn', async () => {
    const wal = new WalSync(walFile('e'));
    let flushes = 0;
    const trigger = new FlushTrigger(wal, () => flushes++);
    trigger.request();
    trigger.request();
    trigger.request();
    expect(flushes).toBe(0);
    await turn();
    expect(flushes).toBe(1);
    trigger.request();
    await turn();
    expect(flushes).toBe(2);
    wal.close();
  });

  it('waits for the running fsync, with the requests made meanwhile in one flush', async () => {
    const wal = new WalSync(walFile('f'));
    const flushedWhileSyncing: boolean[] = [];
    const trigger = new FlushTrigger(wal, () => flushedWhileSyncing.push(wal.syncing));
    wal.committed();
    const synced = wal.durable();
    expect(wal.syncing).toBe(true);
    trigger.request();
    trigger.request();
    await synced;
    await turn();
    // Once, and not while the fsync ran.
    expect(flushedWhileSyncing).toEqual([false]);
    wal.close();
  });
});

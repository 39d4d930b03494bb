import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromHex } from '../../proofs/index.ts';
import {
  entryBytes,
  logLeafHash,
  logRoot,
  parseEntry,
  verifyConsistency,
  verifyHeadSignature,
  verifyInclusion,
} from '../../transparency/index.ts';
import { RootNotPublishedError } from '../blocks/blockLibrary.ts';
import { testBlocks, testLibrary } from '../testing/blockCache.ts';
import { tempDataDir } from '../testing/harness.ts';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../testing/postgres.ts';
import { PostgresLogStorage, SqliteLogStorage, type LogStorage } from './logStorage.ts';
import { BlockPublication } from './publication.ts';
import { LogSigningKey } from './signingKey.ts';
import { nodeSha256 } from '../../transparency/nodeSha256.ts';
import { LogKeyMismatchError, TransparencyLog, type CommittedBlock } from './transparencyLog.ts';

const KEY = LogSigningKey.fromText('11'.repeat(32), 'a test key');
const OTHER_KEY = LogSigningKey.fromText('22'.repeat(32), 'another test key');

function fakeBlock(i: number): CommittedBlock {
  const hex = (n: number) => n.toString(16).padStart(64, '0');
  return {
    id: hex(1000 + i),
    pool: 'real',
    stakeCents: 100,
    count: 1_000_000,
    root: hex(2000 + i),
    seedHash: hex(3000 + i),
  };
}

/** Every check of a log as a monitor would make it: entries hash to the head's root, heads signed and consistent. */
async function checkWholeLog(log: TransparencyLog, heads: { treeSize: number; rootHash: string }[]): Promise<void> {
  const head = await log.latestHead();
  expect(await verifyHeadSignature(head, KEY.publicKey)).toBe(true);
  const entries = await log.entries(0, head.treeSize);
  expect(entries.map((e) => e.index)).toEqual([...Array(head.treeSize).keys()]);
  const leaves = entries.map((e) => logLeafHash(nodeSha256, entryBytes(e.data)));
  expect(Buffer.from(logRoot(nodeSha256, leaves)).toString('hex')).toBe(head.rootHash);
  for (const earlier of heads) {
    const proof = (await log.consistency(earlier.treeSize, head.treeSize)).map((h) => fromHex(h)!);
    const ok = verifyConsistency(
      nodeSha256,
      earlier.treeSize,
      head.treeSize,
      fromHex(earlier.rootHash)!,
      fromHex(head.rootHash)!,
      proof,
    );
    expect(ok).toBe(true);
  }
  for (const entry of entries) {
    const inclusion = (await log.inclusion(entry.index, head.treeSize)).map((h) => fromHex(h)!);
    expect(
      verifyInclusion(nodeSha256, leaves[entry.index]!, entry.index, head.treeSize, inclusion, fromHex(head.rootHash)!),
    ).toBe(true);
  }
}

function storageKinds(): { name: string; open: () => Promise<LogStorage>; ready: () => Promise<boolean> }[] {
  let dir = '';
  let database: TestDatabase | null = null;
  return [
    {
      name: 'SQLite',
      ready: async () => {
        dir ||= tempDataDir();
        return true;
      },
      open: async () => SqliteLogStorage.inDataDir(dir),
    },
    {
      name: 'PostgreSQL',
      ready: async () => {
        if (!(await postgresReachable())) return false;
        database ??= await createTestDatabase();
        return true;
      },
      open: () => PostgresLogStorage.connect(database!.url),
    },
  ].map((kind) => {
    afterAll(async () => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    });
    return kind;
  });
}

describe.each(storageKinds())('the transparency log on $name', ({ open, ready }) => {
  const logs: TransparencyLog[] = [];
  let usable = false;
  beforeAll(async () => {
    usable = await ready();
  });
  afterAll(async () => {
    for (const log of logs) await log.close();
  });
  const openLog = async (key = KEY, clock?: () => Date, headSeconds = 60) => {
    const log = await TransparencyLog.open(await open(), key, { headSeconds, clock });
    logs.push(log);
    return log;
  };

  it('appends from two connections at once: each entry once, contiguous, every head signed and consistent', async (t) => {
    if (!usable) return t.skip();
    const [one, two] = [await openLog(), await openLog()];
    const first = await one.latestHead();
    expect(first.treeSize).toBe(0);
    const blocks = Array.from({ length: 12 }, (_, i) => fakeBlock(i));
    // Every block logged by both instances, interleaved: the second append of each finds the first.
    const logged = await Promise.all(blocks.flatMap((block) => [one.logCommitment(block), two.logCommitment(block)]));
    for (let i = 0; i < logged.length; i += 2) expect(logged[i]).toEqual(logged[i + 1]);
    expect(new Set(logged.map((l) => l.index)).size).toBe(12);
    const head = await two.latestHead();
    expect(head.treeSize).toBe(12);
    for (const { index, head: firstHead } of logged) {
      expect(firstHead.treeSize).toBeGreaterThan(index);
      expect(await verifyHeadSignature(firstHead, KEY.publicKey)).toBe(true);
    }
    await one.logSeed(blocks[3]!.id, 'ab'.repeat(32));
    const entries = await one.entries(0, 13);
    expect(parseEntry(entries[12]!.data)).toMatchObject({
      kind: 'seed',
      blockId: blocks[3]!.id,
      seed: 'ab'.repeat(32),
    });
    expect(parseEntry(entries[0]!.data)).toMatchObject({ kind: 'commitment', pool: 'real', stakeCents: 100 });
    await checkWholeLog(two, [first, ...logged.map((l) => l.head)]);
  });

  it('refuses to sign a log with another key than the one that signed it', async (t) => {
    if (!usable) return t.skip();
    await expect(openLog(OTHER_KEY)).rejects.toThrow(LogKeyMismatchError);
  });

  it('signs a head once the newest is a period old, not before; its times only grow', async (t) => {
    if (!usable) return t.skip();
    let now = Date.now() + 3_600_000;
    const log = await openLog(KEY, () => new Date(now), 60);
    const before = await log.signHeadIfDue();
    now += 30_000;
    expect(await log.signHeadIfDue()).toEqual(before);
    now += 30_000;
    const after = await log.signHeadIfDue();
    expect(after.timestamp).toBe(now);
    expect(after.treeSize).toBe(before.treeSize);
    // A clock that went back: the next head is still later than the last.
    now -= 120_000;
    const entry = await log.logCommitment(fakeBlock(99));
    expect(entry.head.timestamp).toBe(after.timestamp + 1);
  });
});

describe('a block’s publication', () => {
  it('gives no unit of a block before its entry is in a head signed before the sale', async () => {
    const dir = tempDataDir();
    const log = await TransparencyLog.open(SqliteLogStorage.inDataDir(dir), KEY, { headSeconds: 60 });
    try {
      const { file, block } = (await testBlocks())[0]!;
      const record = { id: block.id, filePath: file, pool: 'demo' as const };
      const publication = new BlockPublication(await testLibrary(), log);
      expect(() => publication.unitAt(record, 0, new Date())).toThrow(RootNotPublishedError);
      const logged = await publication.publish(record);
      expect(Date.now()).toBeGreaterThan(logged.head.timestamp);
      expect(() => publication.unitAt(record, 0, new Date(logged.head.timestamp))).toThrow(RootNotPublishedError);
      expect(publication.unitAt(record, 0, new Date(logged.head.timestamp + 1))).toEqual(block.unitAt(0));
      const entry = parseEntry((await log.entries(logged.index, logged.index + 1))[0]!.data);
      expect(entry).toMatchObject({ kind: 'commitment', blockId: block.id, count: block.header.count });
    } finally {
      await log.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes the key file once, 0600, and reads the same key back', () => {
    const dir = tempDataDir();
    try {
      const settings = { key: null, keyFile: null, headSeconds: 60 };
      const made = LogSigningKey.load(settings, dir);
      const file = path.join(dir, 'transparency-key.pem');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(LogSigningKey.load(settings, dir).publicKey).toBe(made.publicKey);
      expect(LogSigningKey.load({ ...settings, keyFile: file }, '/nonexistent').publicKey).toBe(made.publicKey);
      expect(() => LogSigningKey.fromText('not a key', 'TRANSPARENCY_KEY')).toThrow(/not a private key/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

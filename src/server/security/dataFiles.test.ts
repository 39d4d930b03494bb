import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCommitmentFile, writeBlockFile, writeCommitmentFile } from '../../emission/index.ts';
import { testBlocks } from '../testing/blockCache.ts';
import { databaseDump, startTestServer, tempDataDir, type TestServer } from '../testing/harness.ts';

/** The mode bits of a file, as chmod writes them. */
const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('the data directory', () => {
  let server: TestServer | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('is created 0700; its databases, key file, block files and commitments 0600', async () => {
    dir = tempDataDir();
    const dataDir = path.join(dir, 'data');
    server = await startTestServer({ DATA_DIR: dataDir });
    expect(modeOf(dataDir)).toBe('700');
    for (const name of ['spincake.sqlite', 'spincake.sqlite-wal', 'sessions.sqlite', 'session-keys']) {
      expect([name, modeOf(path.join(dataDir, name))]).toEqual([name, '600']);
    }
    const { file, block } = (await testBlocks())[0]!;
    const copy = path.join(dataDir, 'blocks', `${block.id}.block`);
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    await writeBlockFile(copy, block);
    writeCommitmentFile(copy, block.id, readCommitmentFile(file, block.id, block.header.count)!);
    expect(modeOf(copy)).toBe('600');
    expect(modeOf(`${copy}.commitment`)).toBe('600');
  });

  it('keeps no key in any table: a copy of the database mints no session', async () => {
    server = await startTestServer();
    await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const tables = server.sqlite.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`)
      .all()
      .map((row) => (row as { name: string }).name);
    const dump = databaseDump(server.sqlite, tables);
    expect(dump).not.toMatch(/session_key/);
    const key = server.context.sessionKeys.signing.key;
    for (const encoding of ['hex', 'base64'] as const) expect(dump).not.toContain(key.toString(encoding));
    expect(server.sqlite.db.prepare(`SELECT key FROM meta`).all()).toEqual([]);
  });
});

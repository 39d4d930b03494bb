import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockFileError, generateBlock, writeBlockFile } from '../../emission/index.ts';
import { assembleBlock } from '../../emission/block.ts';
import { BlockRefusedError, loadBlockFile } from '../blocks/blockLoading.ts';
import { SqliteStore } from '../store/sqlite/sqliteStore.ts';
import { testBlocks, testLibrary } from '../testing/blockCache.ts';
import { databaseDump, tempDataDir } from '../testing/harness.ts';

const dir = tempDataDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/server/ops/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: path.join(dir, 'data') },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('loading blocks', () => {
  it('puts a verified block on sale, and refuses tampered, foreign, partial, forged and repeated files', async () => {
    const [good, second] = await testBlocks();
    const store = SqliteStore.open(path.join(dir, 'in-process'), await testLibrary());
    try {
      const loaded = await loadBlockFile(store, path.join(dir, 'in-process'), good!.file, { copy: false });
      expect(loaded).toMatchObject({ id: good!.block.id, stakeCents: 100, status: 'open', nextPosition: 0 });
      const before = databaseDump(store);

      const tampered = path.join(dir, 'tampered.block');
      const bytes = fs.readFileSync(second!.file);
      bytes[bytes.length - 5]! ^= 0x01;
      fs.writeFileSync(tampered, bytes);
      await expect(loadBlockFile(store, dir, tampered)).rejects.toThrow(BlockFileError);
      await expect(loadBlockFile(store, dir, tampered)).rejects.toThrow(/tampered\.block: .*checksum/);

      const foreign = path.join(dir, 'foreign.block');
      fs.writeFileSync(foreign, 'id,stake\n1,100\n');
      await expect(loadBlockFile(store, dir, foreign)).rejects.toThrow(/foreign\.block: not a SPINCAKE block file/);

      const partial = path.join(dir, 'partial.block');
      await writeBlockFile(partial, generateBlock({ stakeCents: 100, seedHex: 'aa', count: 1000 }));
      await expect(loadBlockFile(store, dir, partial)).rejects.toThrow(/holds 1000 units; only full blocks/);

      // Checksums right, content wrong: the audit refuses it.
      const body = Uint8Array.from(second!.block.body);
      body.fill(0xff, 0, 24);
      const forged = path.join(dir, 'forged.block');
      await writeBlockFile(forged, assembleBlock(100, Buffer.from('5e1e0002', 'hex'), body));
      await expect(loadBlockFile(store, dir, forged)).rejects.toThrow(BlockRefusedError);
      await expect(loadBlockFile(store, dir, forged)).rejects.toThrow(/the audit found \d+ problem/);

      await expect(loadBlockFile(store, dir, good!.file)).rejects.toThrow(/already loaded/);
      expect(databaseDump(store)).toBe(before);
    } finally {
      await store.close();
    }
  });

  it('the CLI says why in one line and exits non-zero', () => {
    const result = cli('load', path.join(dir, 'no-such.block'));
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^error: .*no-such\.block: cannot read/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const usage = cli('frobnicate');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('unknown command "frobnicate"');
  });

  it('audit-ledger passes on a fresh database and fails on a tampered one', async () => {
    const dataDir = path.join(dir, 'data');
    const store = SqliteStore.open(dataDir, await testLibrary());
    const player = await store.createDemoPlayer(500, new Date());
    await store.close();
    const ok = cli('audit-ledger');
    expect(ok.stdout).toContain('ledger OK');
    expect(ok.status).toBe(0);

    const raw = SqliteStore.open(dataDir, await testLibrary());
    raw.db.prepare('UPDATE players SET balance_cents = 900 WHERE id = ?').run(player.id);
    await raw.close();
    const bad = cli('audit-ledger');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain(`PROBLEM player ${player.id}: balance 900 but entries sum to 500`);
    expect(bad.stdout).toContain('ledger FAILED');
  });
});

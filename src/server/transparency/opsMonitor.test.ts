import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, PlayResponse } from '../../contract/api.ts';
import { main as verify } from '../../verify/commands.ts';
import { testBlocks } from '../testing/blockCache.ts';
import { call, demoSession, newPlayId, startTestServer, type TestServer } from '../testing/harness.ts';

/** `npm run ops -- blocks close` against a running server, and `npm run verify -- monitor` of its log. */
let s: TestServer;
let stateFile: string;
beforeAll(async () => {
  s = await startTestServer();
  stateFile = path.join(s.dataDir, 'monitor-state.json');
});
afterAll(async () => {
  await s?.close();
});

function ops(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/server/ops/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: s.dataDir },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

async function monitor(): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await verify(['monitor', s.url, '--state', stateFile], (line) => lines.push(line));
  return { code, lines };
}

async function play(stakeCents: number) {
  const { token } = await demoSession(s.url);
  return call<PlayResponse & ApiError>(s.url, 'POST', '/api/plays', {
    token,
    body: { stakeCents, playId: newPlayId() },
  });
}

describe('ending a block’s sale, and monitoring the log', () => {
  it('closes a block: nothing more of it is sold, its seed is logged, and a monitor regenerates it', async () => {
    const block = (await testBlocks())[4]!.block; // 5 €, the only block of its stake
    expect((await play(500)).status).toBe(200);
    const first = await monitor();
    expect(first.code).toBe(0);
    expect(first.lines.at(-1)).toMatch(/^VERIFIED: head kept/);
    const kept = fs.readFileSync(stateFile, 'utf8');

    const closed = ops('blocks', 'close', block.id.slice(0, 16));
    expect(closed.status, closed.stderr).toBe(0);
    expect(closed.stdout).toMatch(/closed at 1 of 1000000 units sold; its seed is in the transparency log/);
    const refused = await play(500);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'SOLD_OUT']);
    expect(ops('blocks', 'close', block.id).stdout).toMatch(/its seed was in the transparency log already/);
    expect(ops('blocks', 'close', 'f'.repeat(16)).status).toBe(2);

    const second = await monitor();
    expect(second.code, second.lines.join('\n')).toBe(0);
    expect(second.lines.join('\n')).toContain('seed matches its seed hash; regenerated, its root is the committed one');
    expect(second.lines).toContain(
      `✓ consistency: the log extends the kept head of ${JSON.parse(kept).head.treeSize} entries`,
    );

    // A monitor that kept another view of the log (here: its kept root altered) is told so, and keeps its head.
    const altered = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    altered.head.rootHash = 'f'.repeat(64);
    fs.writeFileSync(stateFile, JSON.stringify(altered));
    const split = await monitor();
    expect(split.code).toBe(1);
    expect(split.lines.join('\n')).toMatch(/the log is not an extension of the kept head/);
    expect(JSON.parse(fs.readFileSync(stateFile, 'utf8')).head.rootHash).toBe('f'.repeat(64));
  });

  it('refuses a seed that does not hash to its block’s seed hash, even in a well-signed log', async () => {
    fs.rmSync(stateFile, { force: true });
    const block = (await testBlocks())[2]!.block; // 2 €
    expect((await play(200)).status).toBe(200);
    await s.context.publication.log.logSeed(block.id, 'ab'.repeat(32));
    const run = await monitor();
    expect(run.code).toBe(1);
    expect(run.lines.join('\n')).toMatch(/the seed of block [0-9a-f]{64} hashes to [0-9a-f]{64}, not to /);
    expect(fs.existsSync(stateFile)).toBe(false);
  });
});

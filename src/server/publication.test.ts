import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError, BlocksResponse, PlayResponse, TicketProofResponse } from '../contract/api.ts';
import { CommitmentWorkers, commitmentFilePath, readCommitmentFile, type Block } from '../emission/index.ts';
import { verifyTicketProof } from '../proofs/index.ts';
import { nodeSha256 } from '../transparency/nodeSha256.ts';
import { BlockLibrary, RootNotPublishedError } from './blocks/blockLibrary.ts';
import { startServer, type RunningServer } from './server.ts';
import { testBlocks, testLibrary } from './testing/blockCache.ts';
import { call, demoSession, newPlayId, tempDataDir, testConfig } from './testing/harness.ts';
import type { Store } from './store/types.ts';

/** Real commitment workers whose work starts only once the test releases it. */
class HeldWorkers extends CommitmentWorkers {
  computed = 0;
  private releaseAll!: () => void;
  private readonly held = new Promise<void>((resolve) => (this.releaseAll = resolve));

  release(): void {
    this.releaseAll();
  }

  override async commit(block: Block) {
    await this.held;
    this.computed++;
    return super.commit(block);
  }
}

const dirs: string[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A test block copied into a fresh data dir, without the commitment kept beside the cached
 * one; and that commitment's root (computed once for the test blocks, in worker threads;
 * proofs.test.ts holds it to the one computed in this thread).
 */
async function copiedBlock(dataDir: string, index: number): Promise<{ file: string; block: Block; root: string }> {
  const { file, block } = (await testBlocks())[index]!;
  const copy = path.join(dataDir, path.basename(file));
  fs.copyFileSync(file, copy);
  const cached = readCommitmentFile(file, block.id, block.header.count);
  if (!cached) throw new Error(`no commitment kept beside ${file}: testLibrary() computes it`);
  return { file: copy, block, root: cached.root };
}

async function addBlock(store: Store, file: string, block: Block): Promise<void> {
  const { stakeCents, count } = block.header;
  await store.addBlock({ id: block.id, stakeCents, pool: 'demo', filePath: file, count }, new Date());
}

async function start(dataDir: string, library: BlockLibrary, prepare: (store: Store) => Promise<void>) {
  const config = testConfig(dataDir);
  const server = await startServer(config, { library, log: () => {}, prepare });
  servers.push(server);
  return server;
}

/** Settles with the promise, and says meanwhile whether it has. */
function watch<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  void promise.finally(() => (settled = true)).catch(() => {});
  return { promise, settled: () => settled };
}

describe('publication of the commitments before the first sale', () => {
  it('answers while the commitments are computed, and sells no unit before its block’s root is published', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    await testLibrary(); // the cached test blocks' commitments, for the roots expected
    const { file, block, root } = await copiedBlock(dataDir, 2); // 2 €
    const workers = new HeldWorkers();
    const library = new BlockLibrary({ workers });
    const server = await start(dataDir, library, (store) => addBlock(store, file, block));
    const { token } = await demoSession(server.url);

    const play = watch(
      call<PlayResponse>(server.url, 'POST', '/api/plays', { token, body: { stakeCents: 200, playId: newPlayId() } }),
    );
    const listed = watch(call<BlocksResponse>(server.url, 'GET', '/api/blocks'));
    // The server answers meanwhile; the play and the list wait for the root.
    for (let i = 0; i < 5; i++) {
      expect((await call(server.url, 'GET', '/api/health')).status).toBe(200);
    }
    expect(play.settled()).toBe(false);
    expect(listed.settled()).toBe(false);
    expect(library.isPublished(block)).toBe(false);
    expect((await server.store.listBlocks())[0]!.nextPosition).toBe(0);

    workers.release();
    const sold = await play.promise;
    expect(sold.status).toBe(200);
    expect(library.isPublished(block)).toBe(true);
    const published = (await listed.promise).body.blocks[0]!;
    expect(published).toMatchObject({ id: block.id, root, seed: null });
    const proof = await call<TicketProofResponse>(server.url, 'GET', `/api/plays/${sold.body.play.playId}/proof`, {
      token,
    });
    expect(verifyTicketProof(proof.body, published.root, nodeSha256, sold.body.play).ok).toBe(true);
    expect(workers.computed).toBe(1);
    // Kept beside the block: a restart reads it instead of computing it again.
    expect(fs.existsSync(commitmentFilePath(file))).toBe(true);
  });

  it('reads the commitment kept beside the block at a restart, without computing it again', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const { file, block, root } = await copiedBlock(dataDir, 3); // 3 €
    const first = new BlockLibrary();
    await first.publish({ id: block.id, filePath: file });
    const workers = new HeldWorkers(); // never released: a computation would hold the play forever
    const server = await start(dataDir, new BlockLibrary({ workers }), (store) => addBlock(store, file, block));
    const { token } = await demoSession(server.url);
    const reply = await call<PlayResponse>(server.url, 'POST', '/api/plays', {
      token,
      body: { stakeCents: 300, playId: newPlayId() },
    });
    expect(reply.status).toBe(200);
    const listed = await call<BlocksResponse>(server.url, 'GET', '/api/blocks');
    expect(listed.body.blocks[0]!.root).toBe(root);
    expect(workers.computed).toBe(0);
  });

  it('ignores a kept commitment that does not belong to the block, and computes it', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const { file, block, root } = await copiedBlock(dataDir, 3);
    // Another block's commitment where this block's should be.
    fs.copyFileSync(commitmentFilePath((await testBlocks())[4]!.file), commitmentFilePath(file));
    const library = new BlockLibrary();
    expect((await library.publish({ id: block.id, filePath: file })).root).toBe(root);
  });

  it('sells nothing of a block met after the start until its root is published, then sells it', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const { file, block, root } = await copiedBlock(dataDir, 4); // 5 €
    const workers = new HeldWorkers();
    const library = new BlockLibrary({ workers });
    // On sale at the start: a 3 € block, its commitment kept beside it (none to compute).
    const onSale = (await testBlocks())[3]!;
    const server = await start(dataDir, library, (store) => addBlock(store, onSale.file, onSale.block));
    // Loaded while the server runs (as `ops load` does from another process): not preloaded.
    await addBlock(server.store, file, block);
    expect(() => library.unitAt({ id: block.id, filePath: file }, 0)).toThrow(RootNotPublishedError);
    const { token } = await demoSession(server.url);
    const play = watch(
      call<PlayResponse>(server.url, 'POST', '/api/plays', { token, body: { stakeCents: 500, playId: newPlayId() } }),
    );
    expect((await call(server.url, 'GET', '/api/health')).status).toBe(200);
    expect(play.settled()).toBe(false);
    const cursor = async () => (await server.store.listBlocks()).find((b) => b.id === block.id)!.nextPosition;
    expect(await cursor()).toBe(0);
    workers.release();
    const sold = await play.promise;
    expect(sold.status).toBe(200);
    expect(await cursor()).toBe(1);
    expect(workers.computed).toBe(1);
    const proof = await call<TicketProofResponse>(server.url, 'GET', `/api/plays/${sold.body.play.playId}/proof`, {
      token,
    });
    expect(proof.body).toMatchObject({ blockId: block.id, position: 0, root });
    expect(verifyTicketProof(proof.body, root, nodeSha256, sold.body.play).ok).toBe(true);
  });
});

describe('readiness after a start', () => {
  it('is not ready while an open block of a stake on sale has no published root, and ready once it has', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    await testLibrary();
    const { file, block } = await copiedBlock(dataDir, 2); // 2 €, its commitment not kept beside it
    const workers = new HeldWorkers();
    const library = new BlockLibrary({ workers });
    const server = await start(dataDir, library, (store) => addBlock(store, file, block));
    const waiting = await call<ApiError>(server.url, 'GET', '/api/health/ready');
    expect(waiting.status).toBe(503);
    expect(waiting.body.error.code).toBe('INTERNAL');
    expect(waiting.body.error.message).toContain('without a published root');
    expect(waiting.body.error.message).toContain(block.id.slice(0, 16));
    workers.release();
    // Its root, then its entry in a signed head of the transparency log: both before « ready ».
    await server.context.publication.publish({ id: block.id, filePath: file, pool: 'demo' });
    expect(await call(server.url, 'GET', '/api/health/ready')).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('waits for the root of a queued block too, and starts computing one loaded while it runs', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    await testLibrary();
    // The open 1 € block has its commitment kept beside it; the queued one has none.
    const [first, second] = await testBlocks();
    const queued = await copiedBlock(dataDir, 1);
    const workers = new HeldWorkers();
    const library = new BlockLibrary({ workers });
    const server = await start(dataDir, library, async (store) => {
      await addBlock(store, first!.file, first!.block);
      await addBlock(store, queued.file, second!.block);
    });
    await library.publish({ id: first!.block.id, filePath: first!.file });
    const statuses = (await server.store.listBlocks()).map((b) => b.status);
    expect(statuses).toEqual(['open', 'queued']);
    const waiting = await call<ApiError>(server.url, 'GET', '/api/health/ready');
    expect(waiting.status).toBe(503);
    expect(waiting.body.error.message).toContain(second!.block.id.slice(0, 16));
    workers.release();
    await server.context.publication.publish({ id: second!.block.id, filePath: queued.file, pool: 'demo' });
    await server.context.publication.publish({ id: first!.block.id, filePath: first!.file, pool: 'demo' });
    expect((await call(server.url, 'GET', '/api/health/ready')).status).toBe(200);

    // A block loaded while it runs (as `ops load` does): readiness starts its publication.
    const later = await copiedBlock(dataDir, 4); // 5 €
    await addBlock(server.store, later.file, (await testBlocks())[4]!.block);
    expect((await call(server.url, 'GET', '/api/health/ready')).status).toBe(503);
    await expect
      .poll(async () => (await call(server.url, 'GET', '/api/health/ready')).status, { timeout: 30_000 })
      .toBe(200);
    expect(workers.computed).toBe(2);
  });
});

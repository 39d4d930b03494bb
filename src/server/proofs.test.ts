import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, BlocksResponse, PlayResponse, TicketProofResponse } from '../contract/api.ts';
import { commitBlock, type Block } from '../emission/index.ts';
import { verifyTicketProof } from '../proofs/index.ts';
import { nodeSha256 } from '../transparency/nodeSha256.ts';
import { testBlocks } from './testing/blockCache.ts';
import { build, call, databaseDump, demoSession, newPlayId, type TestApp } from './testing/harness.ts';
import { testBook } from './testing/testBook.ts';

let s: TestApp;
let blocks: Block[];
beforeAll(async () => {
  // Portal sessions on: real blocks on sale beside the demo ones, each pool's listed.
  s = await build({ SPINCAKE_TEST_MODE: '1', PORTAL_SECRET: 'portal-secret-for-the-proofs-test-0123456789' });
  blocks = (await testBlocks()).map((b) => b.block);
});
afterAll(async () => {
  await s?.close();
});

const listBlocks = () => call<BlocksResponse>(s.app, 'GET', '/api/blocks');

async function playOne(token: string, stakeCents: number) {
  const reply = await call<PlayResponse>(s.app, 'POST', '/api/plays', {
    token,
    body: { stakeCents, playId: newPlayId() },
  });
  expect(reply.status).toBe(200);
  return reply.body.play;
}

describe('GET /api/blocks', () => {
  it('publishes every block’s commitment to anyone, and no seed while a unit is left to sell', async () => {
    const reply = await listBlocks();
    expect(reply.status).toBe(200);
    expect(reply.body.blocks.map((b) => b.id)).toEqual(blocks.map((b) => b.id));
    const pools = (await testBlocks()).map((b) => b.pool);
    reply.body.blocks.forEach((published, i) => {
      const block = blocks[i]!;
      const commitment = commitBlock(block);
      expect(published).toMatchObject({
        stakeCents: block.header.stakeCents,
        pool: pools[i],
        count: block.header.count,
        root: commitment.root,
        seedHash: commitment.seedHash,
        seed: null,
      });
    });
    // The demo pool's five blocks, then the real pool's four, each pool with its own open block per stake.
    expect(reply.body.blocks.map((b) => [b.pool, b.status])).toEqual([
      ...['open', 'queued', 'open', 'open', 'open'].map((status) => ['demo', status]),
      ...['open', 'open', 'open', 'open'].map((status) => ['real', status]),
    ]);
    const text = JSON.stringify(reply.body);
    for (const block of blocks) expect(text).not.toContain(block.header.seedHex);
  }, 240_000); // each block's commitment computed again in this thread: seconds each

  it('refuses a query string with a reason', async () => {
    const reply = await call<ApiError>(s.app, 'GET', '/api/blocks?seed=1');
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_INPUT');
  });
});

describe('GET /api/plays/:playId/proof', () => {
  it('proves a sold unit against the published root, and shows neither the seed nor another unit', async () => {
    const { token } = await demoSession(s.app);
    const play = await playOne(token, 200);
    const reply = await call<TicketProofResponse>(s.app, 'GET', `/api/plays/${play.playId}/proof`, { token });
    expect(reply.status).toBe(200);
    const published = (await listBlocks()).body.blocks.find((b) => b.id === reply.body.blockId)!;
    expect(published.stakeCents).toBe(200);
    const verdict = verifyTicketProof(reply.body, published.root, nodeSha256, play);
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verdict.checks.map((c) => c.name)).toEqual(['shape', 'lot', 'leaf', 'path', 'published', 'play']);
    expect(reply.body.wheels).toEqual(play.wheels);
    for (const block of blocks) expect(JSON.stringify(reply.body)).not.toContain(block.header.seedHex);
  });

  it('answers only for the player’s own block plays, with a reason, and changes nothing', async () => {
    const alice = await demoSession(s.app);
    const bob = await demoSession(s.app);
    const play = await playOne(alice.token, 100);
    // A test fixture comes from no block: it has nothing to prove.
    const fixture = await call(s.app, 'POST', '/api/test/fixture', { token: alice.token, body: { pair: 'x7' } });
    expect(fixture.status).toBe(200);
    const fixturePlay = await playOne(alice.token, 100);
    const before = databaseDump(s.sqlite);
    const proof = (token: string | undefined, playId: string) =>
      call<ApiError>(s.app, 'GET', `/api/plays/${playId}/proof`, token === undefined ? {} : { token });

    const other = await proof(bob.token, play.playId);
    expect([other.status, other.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const unknown = await proof(alice.token, newPlayId());
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const malformed = await proof(alice.token, 'not-a-uuid');
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const anonymous = await proof(undefined, play.playId);
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'NO_SESSION']);
    const none = await proof(alice.token, fixturePlay.playId);
    expect([none.status, none.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(none.body.error.message).toMatch(/comes from no block/);
    expect((await proof(alice.token, play.playId)).status).toBe(200);
    expect(databaseDump(s.sqlite)).toBe(before);
  });

  it('publishes the seed once the block is sold out, and it gives the seed hash and the root', async () => {
    const block = blocks[3]!; // 3 €
    await testBook(s.store).forceBlockCursor(block.id, block.header.count - 1);
    const { token } = await demoSession(s.app);
    await playOne(token, 300);
    const published = (await listBlocks()).body.blocks.find((b) => b.id === block.id)!;
    expect(published.status).toBe('sold-out');
    expect(published.sold).toBe(block.header.count);
    expect(published.seed).toBe(block.header.seedHex);
    expect(createHash('sha256').update(Buffer.from(published.seed!, 'hex')).digest('hex')).toBe(published.seedHash);
    // The 5 € block is closed by hand: its seed is out too.
    await testBook(s.store).closeBlocksOfStake(500);
    const closed = (await listBlocks()).body.blocks.find((b) => b.id === blocks[4]!.id)!;
    expect([closed.status, closed.seed]).toEqual(['closed', blocks[4]!.header.seedHex]);
  });
});

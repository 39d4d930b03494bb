import { describe, expect, it } from 'vitest';
import { call, demoSession, startTestServer } from '../testing/harness.ts';
import type { TestModeStore } from './fixtures.ts';

const TEST_ONLY = ['forceBlockCursor', 'closeBlocksOfStake', 'setBalance'] as const;

describe('the test-only writes', () => {
  it('are on no store that a server without test mode holds or hands its routes', async () => {
    const server = await startTestServer();
    try {
      // The routes' store is also the one the sale room and the wallet are given.
      const stores: [string, object][] = [
        ['server', server.store],
        ['routes', server.context.store],
      ];
      for (const [holder, store] of stores) {
        for (const name of TEST_ONLY) expect(name in store, `${holder}: ${name}`).toBe(false);
      }
    } finally {
      await server.close();
    }
  });

  it('are on the store test mode hands its routes, writing the server’s own data', async () => {
    const server = await startTestServer({ SPINCAKE_TEST_MODE: '1' });
    try {
      const store = server.context.store as TestModeStore;
      for (const name of TEST_ONLY) expect(typeof store[name], name).toBe('function');
      const [block] = await server.store.listBlocks();
      await store.forceBlockCursor(block!.id, 7);
      expect((await server.store.listBlocks()).find((b) => b.id === block!.id)?.nextPosition).toBe(7);
      const { token, playerId } = await demoSession(server.url);
      const reply = await call<{ balanceCents: number }>(server.url, 'POST', '/api/test/balance', {
        token,
        body: { balanceCents: 1234 },
      });
      expect(reply.body.balanceCents).toBe(1234);
      expect((await server.store.getPlayer(playerId))?.balanceCents).toBe(1234);
      await call(server.url, 'POST', '/api/test/exhaust', { token, body: { stakeCents: block!.stakeCents } });
      const ofStake = (await server.store.listBlocks()).filter((b) => b.stakeCents === block!.stakeCents);
      expect(ofStake.map((b) => b.status)).toEqual(ofStake.map(() => 'closed'));
    } finally {
      await server.close();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BlockLibrary } from '../blocks/blockLibrary.ts';
import { auditLedger } from '../ops/ledgerAudit.ts';
import { testLibrary } from '../testing/blockCache.ts';
import { storeKinds, type OpenedStore } from '../testing/stores.ts';
import type { DemoReloadRequest } from './demoReload.ts';
import type { Store } from './types.ts';
import { testBook } from '../testing/testBook.ts';

/** « Recharger la démo » in each store: SQLite, and PostgreSQL when one answers. */
const kinds = await storeKinds();

let library: BlockLibrary;
beforeAll(async () => {
  library = await testLibrary();
});

describe.each(kinds)('$name store: reloadDemo', (kind) => {
  let opened: OpenedStore;
  let store: Store;

  beforeEach(async (context) => {
    if (!kind.available) return context.skip();
    opened = await kind.open(library);
    store = opened.store;
  });
  afterEach(async () => {
    await opened?.destroy();
  });
  afterAll(() => {
    if (!kind.available) console.warn(`${kind.name} store tests skipped: database not reachable`);
  });

  const request = (playerId: string, reloadId = randomUUID()): DemoReloadRequest => ({
    playerId,
    reloadId,
    toCents: 10_000,
    belowCents: 100,
    now: new Date(),
  });

  it('books the reload once per reloadId, concurrent retries included, and keeps the ledger right', async () => {
    const player = await store.createDemoPlayer(10_000, new Date());
    await testBook(store).setBalance(player.id, 30, new Date());
    const first = request(player.id);
    const answers = await Promise.all([store.reloadDemo(first), store.reloadDemo(first), store.reloadDemo(first)]);
    expect(answers.filter((a) => a.ok && !a.replayed)).toHaveLength(1);
    for (const answer of answers) expect(answer).toMatchObject({ ok: true, balanceCents: 10_000 });
    expect((await store.getPlayer(player.id))?.balanceCents).toBe(10_000);
    // Spent down again: another reloadId reloads again; the old one only answers.
    await testBook(store).setBalance(player.id, 0, new Date());
    expect(await store.reloadDemo(first)).toEqual({ ok: true, balanceCents: 0, replayed: true });
    expect(await store.reloadDemo(request(player.id))).toEqual({ ok: true, balanceCents: 10_000, replayed: false });
    const report = await store.readSnapshot(() => auditLedger(store, library));
    expect(report.problems).toEqual([]);
  });

  it('refuses a balance not low, a portal player and an unknown player, and changes nothing', async () => {
    const demo = await store.createDemoPlayer(100, new Date());
    const portal = await store.ensurePortalPlayer('portal-carol', new Date());
    const before = await opened.dump();
    expect(await store.reloadDemo(request(demo.id))).toEqual({ ok: false, code: 'BALANCE_NOT_LOW' });
    expect(await store.reloadDemo(request(portal.id))).toEqual({ ok: false, code: 'DEMO_ONLY' });
    expect(await store.reloadDemo(request('demo-nobody'))).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect(await opened.dump()).toBe(before);
  });
});

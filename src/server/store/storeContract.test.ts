import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unitForPair } from '../../emission/index.ts';
import { evaluate, type StakeCents } from '../../rules/index.ts';
import type { BlockLibrary } from '../blocks/blockLibrary.ts';
import { auditLedger } from '../ops/ledgerAudit.ts';
import { seededRandom } from '../seededRandom.ts';
import { testLibrary } from '../testing/blockCache.ts';
import { addTestBlocks } from '../testing/harness.ts';
import { newWalletBet, walletBuyRequest } from '../testing/walletBets.ts';
import { storeKinds, type OpenedStore } from '../testing/stores.ts';
import type { BuyRequest, BuyResult, Store } from './types.ts';
import { testBook } from '../testing/testBook.ts';

/**
 * The Store contract, run against every store: SQLite (the reference) and PostgreSQL
 * (skipped, with a console line, when no server answers). Each test gets fresh data.
 */
const kinds = await storeKinds();

let library: BlockLibrary;
beforeAll(async () => {
  library = await testLibrary();
});

function buy(store: Store, playerId: string, stakeCents: StakeCents, more: Partial<BuyRequest> = {}) {
  const request = {
    playerId,
    playId: randomUUID(),
    stakeCents,
    pool: 'demo' as const,
    salesOpen: true,
    now: new Date(),
  };
  return store.buyPlay({ ...request, ...more });
}

function ok(result: BuyResult) {
  if (!result.ok) throw new Error(`play refused: ${result.code}`);
  return result;
}

const PORTAL = 'portal-alice';

const walletBet = (playId: string = randomUUID(), playerId = PORTAL) =>
  newWalletBet({ playerId, playId, deadlineMs: 60_000 });

/** A wallet play sold on a recorded bet; its win is owed under the returned requestId. */
async function walletSale(store: Store): Promise<string> {
  const bet = walletBet();
  expect(await store.recordWalletBet(bet)).toEqual({ recorded: true });
  const request = walletBuyRequest(bet, 5000);
  ok(await store.buyPlay(request));
  return request.wallet!.settlementRequestId;
}

async function expectLedgerOk(store: Store) {
  const report = await store.readSnapshot(() => auditLedger(store, library));
  expect(report.problems).toEqual([]);
  return report;
}

describe.each(kinds)('$name store', (kind) => {
  let opened: OpenedStore;
  let store: Store;
  let blockIds: string[];

  beforeEach(async (context) => {
    if (!kind.available) return context.skip();
    opened = await kind.open(library);
    store = opened.store;
    await addTestBlocks(store, ['demo', 'real']);
    blockIds = (await store.listBlocks()).map((b) => b.id);
  });
  afterEach(async () => {
    await opened?.destroy();
  });
  afterAll(() => {
    if (!kind.available) console.warn(`${kind.name} store tests skipped: database not reachable`);
  });

  it('loads blocks: the first of each stake opens, the next one queues', async () => {
    // Each pool has its own open block per stake and its own queue.
    const blocks = await store.listBlocks();
    expect(blocks.filter((b) => b.pool === 'demo').map((b) => [b.stakeCents, b.status, b.nextPosition])).toEqual([
      [100, 'open', 0],
      [100, 'queued', 0],
      [200, 'open', 0],
      [300, 'open', 0],
      [500, 'open', 0],
    ]);
    expect(blocks.filter((b) => b.pool === 'real').map((b) => [b.stakeCents, b.status, b.nextPosition])).toEqual([
      [100, 'open', 0],
      [200, 'open', 0],
      [300, 'open', 0],
      [500, 'open', 0],
    ]);
    expect([...(await store.stakesWithUnits('demo'))].sort()).toEqual([100, 200, 300, 500]);
    expect([...(await store.stakesWithUnits('real'))].sort()).toEqual([100, 200, 300, 500]);
  });

  it('sells units in block order, debits the stake and credits the unit’s lot', async () => {
    const player = await store.createDemoPlayer(10_000, new Date());
    let balance = 10_000;
    for (let i = 0; i < 5; i++) {
      const { play, balanceCents } = ok(await buy(store, player.id, 100));
      const lot = evaluate(library.unitAt({ id: blockIds[0]!, filePath: '' }, i)).winCents;
      expect(play.blockId).toBe(blockIds[0]);
      expect(play.position).toBe(i);
      expect(play.winCents).toBe(lot);
      expect(play.balanceBeforeCents).toBe(balance);
      balance = balance - 100 + lot;
      expect(balanceCents).toBe(balance);
      expect(play.balanceAfterCents).toBe(balance);
    }
    expect((await store.getPlayer(player.id))!.balanceCents).toBe(balance);
    await expectLedgerOk(store);
  });

  it('replays the same playId, in sequence and concurrently, with one debit', async () => {
    const player = await store.createDemoPlayer(10_000, new Date());
    const playId = randomUUID();
    const request = {
      playerId: player.id,
      playId,
      stakeCents: 200 as StakeCents,
      pool: 'demo' as const,
      salesOpen: true,
      now: new Date(),
    };
    const first = ok(await store.buyPlay(request));
    expect(first.replayed).toBe(false);
    const again = await Promise.all(Array.from({ length: 20 }, () => store.buyPlay(request)));
    for (const r of again) {
      expect(ok(r).replayed).toBe(true);
      expect(ok(r).play).toEqual(first.play);
      expect(ok(r).balanceCents).toBe(first.balanceCents);
    }
    // A fresh playId sent 20 times at once also sells once.
    const burstId = randomUUID();
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => store.buyPlay({ ...request, playId: burstId, salesOpen: false })),
    );
    expect(burst.every((r) => !r.ok && r.code === 'SALES_CLOSED')).toBe(true);
    const sold = await Promise.all(Array.from({ length: 20 }, () => store.buyPlay({ ...request, playId: burstId })));
    expect(sold.filter((r) => ok(r).replayed === false)).toHaveLength(1);
    expect(new Set(sold.map((r) => ok(r).play.position)).size).toBe(1);
    const facts = await store.ledgerFacts();
    expect(facts.playEntries.size).toBe(2);
    expect((await store.listBlocks())[2]!.nextPosition).toBe(2);
    await expectLedgerOk(store);
  });

  it('refuses a playId reused with another stake or by another player, and changes nothing', async () => {
    const alice = await store.createDemoPlayer(10_000, new Date());
    const bob = await store.createDemoPlayer(10_000, new Date());
    const playId = randomUUID();
    ok(await buy(store, alice.id, 100, { playId }));
    const before = await opened.dump();
    expect(await buy(store, alice.id, 200, { playId })).toEqual({ ok: false, code: 'PLAY_ID_REUSED' });
    expect(await buy(store, bob.id, 100, { playId })).toEqual({ ok: false, code: 'PLAY_ID_REUSED' });
    expect(await store.getPlay(bob.id, playId)).toBeNull();
    expect(await opened.dump()).toBe(before);
  });

  it('refuses without a trace: closed sales, low balance, unknown player, sold out', async () => {
    const player = await store.createDemoPlayer(150, new Date());
    const before = await opened.dump();
    expect(await buy(store, player.id, 100, { salesOpen: false })).toEqual({ ok: false, code: 'SALES_CLOSED' });
    expect(await buy(store, player.id, 200)).toEqual({ ok: false, code: 'INSUFFICIENT_BALANCE' });
    expect(await buy(store, 'demo-nobody', 100)).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect(await opened.dump()).toBe(before);
    await testBook(store).closeBlocksOfStake(300);
    const closed = await opened.dump();
    expect(await buy(store, player.id, 300)).toEqual({ ok: false, code: 'INSUFFICIENT_BALANCE' });
    await testBook(store).setBalance(player.id, 1000, new Date());
    const funded = await opened.dump();
    expect(await buy(store, player.id, 300)).toEqual({ ok: false, code: 'SOLD_OUT' });
    expect(await opened.dump()).toBe(funded);
    expect(closed).not.toBe(before);
    expect([...(await store.stakesWithUnits('demo'))].sort()).toEqual([100, 200, 500]);
  });

  it('sells exactly what the balance allows out of 200 concurrent plays', async () => {
    const player = await store.createDemoPlayer(50 * 100, new Date());
    const results = await Promise.all(Array.from({ length: 200 }, () => buy(store, player.id, 100)));
    const sold = results.filter((r) => r.ok).map((r) => ok(r).play);
    const refused = results.filter((r) => !r.ok);
    expect(refused.every((r) => !r.ok && r.code === 'INSUFFICIENT_BALANCE')).toBe(true);
    // Replay the block's units in sale order: each play is sold while the balance allows, and no other.
    let balance = 5000;
    let expected = 0;
    for (let position = 0; expected < 200 && balance >= 100; position++, expected++) {
      balance += evaluate(library.unitAt({ id: blockIds[0]!, filePath: '' }, position)).winCents - 100;
    }
    expect(sold).toHaveLength(expected);
    expect(sold.length).toBeGreaterThanOrEqual(50);
    expect(sold.every((p) => p.balanceAfterCents >= 0)).toBe(true);
    expect(sold.map((p) => p.position).sort((a, b) => a! - b!)).toEqual(sold.map((_, i) => i));
    expect((await store.getPlayer(player.id))!.balanceCents).toBe(balance);
    await expectLedgerOk(store);
  });

  it('sells exactly 50 of 200 concurrent losing plays on a balance of 50', async () => {
    const player = await store.createDemoPlayer(50 * 100, new Date());
    const losing = unitForPair('lose', 100, seededRandom('losing'));
    const results = await Promise.all(
      Array.from({ length: 200 }, () => buy(store, player.id, 100, { fixtureUnit: losing })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(50);
    expect((await store.getPlayer(player.id))!.balanceCents).toBe(0);
    await expectLedgerOk(store);
  });

  it('a play that fails inside a batch fails alone: the plays sent with it are sold', async () => {
    const player = await store.createDemoPlayer(10_000, new Date());
    // A fixture unit of another stake makes the store throw for that play (a bug's stand-in).
    const wrongStake = unitForPair('lose', 200, seededRandom('wrong-stake'));
    const results = await Promise.allSettled([
      buy(store, player.id, 100),
      buy(store, player.id, 100, { fixtureUnit: wrongStake }),
      buy(store, player.id, 100),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain('unit of 200 cents sold at 100');
    const sold = results.filter((r) => r.status === 'fulfilled').map((r) => ok(r.value).play.position);
    expect(sold).toEqual([0, 1]);
    const plays = await store.listPlays({ playerId: player.id, limit: 10 });
    expect(plays.plays).toHaveLength(2);
    await expectLedgerOk(store);
  });

  it('crosses into the next block without a gap when the open one ends', async () => {
    const player = await store.createDemoPlayer(100_000, new Date());
    const [first, second] = (await store.listBlocks()).filter((b) => b.stakeCents === 100);
    await testBook(store).forceBlockCursor(first!.id, first!.count - 3);
    // Earlier positions are not sold in this test: the audit would see a gap, so check sales directly.
    const results = await Promise.all(Array.from({ length: 7 }, () => buy(store, player.id, 100)));
    const plays = results.map((r) => ok(r).play).sort((a, b) => (a.createdAt < b.createdAt ? -1 : 0));
    const where = plays.map((p) => `${p.blockId === first!.id ? 'A' : 'B'}${p.position}`).sort();
    const n = first!.count;
    expect(where).toEqual([`A${n - 1}`, `A${n - 2}`, `A${n - 3}`, 'B0', 'B1', 'B2', 'B3'].sort());
    const blocks = await store.listBlocks();
    expect(blocks.find((b) => b.id === first!.id)).toMatchObject({ status: 'closed', nextPosition: n });
    expect(blocks.find((b) => b.id === second!.id)).toMatchObject({ status: 'open', nextPosition: 4 });
    // The stake stays on sale from the second block.
    expect((await store.stakesWithUnits('demo')).has(100)).toBe(true);
  });

  it('closes the last block of a stake on its last unit, then answers SOLD_OUT', async () => {
    const player = await store.createDemoPlayer(100_000, new Date());
    const block = (await store.listBlocks()).find((b) => b.stakeCents === 500)!;
    await testBook(store).forceBlockCursor(block.id, block.count - 2);
    const results = await Promise.all(Array.from({ length: 4 }, () => buy(store, player.id, 500)));
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok && r.code === 'SOLD_OUT')).toHaveLength(2);
    expect((await store.stakesWithUnits('demo')).has(500)).toBe(false);
    expect((await store.listBlocks()).find((b) => b.id === block.id)!.status).toBe('closed');
  });

  it('pages history newest first, records progress and finishes plays', async () => {
    const player = await store.createDemoPlayer(100_000, new Date());
    const other = await store.createDemoPlayer(100_000, new Date());
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(ok(await buy(store, player.id, 200)).play.playId);
    const page1 = await store.listPlays({ playerId: player.id, limit: 10 });
    expect(page1.more).toBe(true);
    expect(page1.plays.map((p) => p.playId)).toEqual(ids.slice(2).reverse());
    const page2 = await store.listPlays({ playerId: player.id, limit: 10, beforePlayId: ids[2] });
    expect(page2).toMatchObject({ more: false });
    expect(page2.plays.map((p) => p.playId)).toEqual([ids[1], ids[0]]);
    expect(await store.listPlays({ playerId: other.id, limit: 10, beforePlayId: ids[2] })).toEqual({
      plays: [],
      more: false,
    });

    const last = ids[11]!;
    expect((await store.latestUnfinishedPlay(player.id))!.playId).toBe(last);
    expect(await store.recordProgress(other.id, last, [true, false, false, false])).toBeNull();
    await store.recordProgress(player.id, last, [true, false, true, false]);
    const seen = await store.recordProgress(player.id, last, [false, true, false, false]);
    expect(seen!.launched).toEqual([true, true, true, false]);
    expect(await store.finishPlay(other.id, last)).toBeNull();
    const done = await store.finishPlay(player.id, last);
    expect(done).toMatchObject({ finished: true, launched: [true, true, true, true] });
    expect((await store.latestUnfinishedPlay(player.id))!.playId).toBe(ids[10]);
    expect(await store.getPlay(other.id, last)).toBeNull();
  });

  it('keeps balances and adjustments in the ledger; the session key is made once', async () => {
    const player = await store.createDemoPlayer(1000, new Date());
    const portal = await store.ensurePortalPlayer('portal-alice', new Date());
    expect(portal).toEqual({ id: 'portal-alice', kind: 'portal', balanceCents: 0 });
    expect(await store.ensurePortalPlayer('portal-alice', new Date())).toEqual(portal);
    expect(await testBook(store).setBalance(player.id, 250, new Date())).toMatchObject({ balanceCents: 250 });
    expect(await testBook(store).setBalance('demo-nobody', 250, new Date())).toBeNull();
    ok(await buy(store, player.id, 100));
    const report = await expectLedgerOk(store);
    expect(report.players).toBe(2);
  });

  it('records wallet bets sent together, each with its own answer: a playId taken by a bet or a play is not', async () => {
    await store.ensurePortalPlayer(PORTAL, new Date());
    const demo = await store.createDemoPlayer(1000, new Date());
    const played = ok(await buy(store, demo.id, 100)).play.playId;
    const bets = Array.from({ length: 40 }, () => walletBet());
    bets[11] = walletBet(bets[10]!.playId);
    bets[20] = walletBet(played);
    const answers = await Promise.all(bets.map((bet) => store.recordWalletBet(bet)));
    const twins = [answers[10]!, answers[11]!];
    expect(twins.filter((a) => a.recorded)).toHaveLength(1);
    const winner = bets[answers[10]!.recorded ? 10 : 11]!;
    expect(twins.find((a) => !a.recorded)).toMatchObject({
      recorded: false,
      bet: { requestId: winner.requestId, state: 'sending' },
    });
    expect(answers[20]).toEqual({ recorded: false, bet: null });
    const others = bets.filter((_, i) => ![10, 11, 20].includes(i));
    expect(answers.filter((_, i) => ![10, 11, 20].includes(i))).toEqual(others.map(() => ({ recorded: true })));
    for (const bet of [...others, winner]) {
      expect(await store.walletBet(bet.playId)).toMatchObject({ requestId: bet.requestId, state: 'sending' });
    }
    expect(await store.unresolvedWalletBets()).toHaveLength(others.length + 1);
  });

  it('a wallet bet that breaks a constraint fails alone: the bets sent with it are recorded', async () => {
    await store.ensurePortalPlayer(PORTAL, new Date());
    const bets = Array.from({ length: 12 }, () => walletBet());
    // No such player: the row breaks its foreign key.
    bets[5] = walletBet(randomUUID(), 'portal-nobody');
    const answers = await Promise.allSettled(bets.map((bet) => store.recordWalletBet(bet)));
    expect(answers.map((a) => a.status)).toEqual(bets.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    expect(await store.walletBet(bets[5]!.playId)).toBeNull();
    const recorded = bets.filter((_, i) => i !== 5);
    expect((await store.unresolvedWalletBets()).map((b) => b.requestId).sort()).toEqual(
      recorded.map((b) => b.requestId).sort(),
    );
  });

  it('wallet bets whose transaction fails are all refused and none is recorded; the next ones are', async () => {
    await store.ensurePortalPlayer(PORTAL, new Date());
    const bets = Array.from({ length: 12 }, () => walletBet());
    const answers = await opened.whileWritesFail(() =>
      Promise.allSettled(bets.map((bet) => store.recordWalletBet(bet))),
    );
    expect(answers.map((a) => a.status)).toEqual(bets.map(() => 'rejected'));
    expect(await store.unresolvedWalletBets()).toEqual([]);
    const again = await Promise.all(bets.map((bet) => store.recordWalletBet(bet)));
    expect(again).toEqual(bets.map(() => ({ recorded: true })));
  });

  it('settles and retries outbox entries sent together, each as if alone; the newest balance is kept', async () => {
    await store.ensurePortalPlayer(PORTAL, new Date());
    const owed: string[] = [];
    for (let i = 0; i < 8; i++) owed.push(await walletSale(store));
    const base = Date.now();
    const at = (ms: number) => new Date(base + ms);
    const [doneTwice, failed, retried, ...done] = owed;
    await Promise.all([
      // The first answer settles it; the second finds it settled and changes nothing.
      store.settleOutbox(doneTwice!, { state: 'done', answerStatus: 'OK', balanceCents: 6000 }, at(10)),
      store.settleOutbox(doneTwice!, { state: 'failed', answerStatus: 'UNKNOWN_BET', balanceCents: null }, at(20)),
      store.settleOutbox(failed!, { state: 'failed', answerStatus: 'UNKNOWN_BET', balanceCents: null }, at(30)),
      store.retryOutbox(retried!, at(60_000), 'no answer within 2000 ms'),
      ...done.map((id, i) =>
        store.settleOutbox(id, { state: 'done', answerStatus: 'OK', balanceCents: 7000 + i }, at(i)),
      ),
    ]);
    const byId = new Map((await store.walletCalls(at(-60_000), at(60_000))).outbox.map((e) => [e.requestId, e]));
    expect(byId.get(doneTwice!)).toMatchObject({ state: 'done', answerStatus: 'OK', balanceCents: 6000, attempts: 1 });
    expect(byId.get(failed!)).toMatchObject({ state: 'failed', answerStatus: 'UNKNOWN_BET', attempts: 1 });
    expect(byId.get(retried!)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: 'no answer within 2000 ms',
      nextAttemptAt: at(60_000).toISOString(),
    });
    for (const [i, id] of done.entries()) {
      expect(byId.get(id)).toMatchObject({ state: 'done', balanceCents: 7000 + i, settledAt: at(i).toISOString() });
    }
    // The answer given last (at +10 ms) is the wallet's latest balance, whatever order the writes took.
    expect(await store.walletBalance(PORTAL)).toEqual({ balanceCents: 6000, seenAt: at(10).toISOString() });
    await expectLedgerOk(store);
  });

  it('counts the units sold since a time per block, and the wallet’s backlog with its oldest times', async () => {
    const player = await store.createDemoPlayer(100_000, new Date());
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 3; i++) ok(await buy(store, player.id, 100, { now: new Date(hourAgo.getTime() - 1000) }));
    for (let i = 0; i < 4; i++) ok(await buy(store, player.id, 100));
    ok(await buy(store, player.id, 500));
    const since = (await store.unitsSoldSince(hourAgo)).sort((a, b) => a.blockId.localeCompare(b.blockId));
    const fiveEuro = (await store.listBlocks()).find((b) => b.stakeCents === 500)!.id;
    expect(since).toEqual(
      [
        { blockId: blockIds[0]!, count: 4 },
        { blockId: fiveEuro, count: 1 },
      ].sort((a, b) => a.blockId.localeCompare(b.blockId)),
    );

    expect(await store.walletBacklog()).toEqual({
      pendingOutbox: 0,
      oldestPendingAt: null,
      betsWithoutOutcome: 0,
      oldestBetAt: null,
    });
    await store.ensurePortalPlayer(PORTAL, new Date());
    const sending = walletBet();
    expect(await store.recordWalletBet(sending)).toEqual({ recorded: true });
    const owed = [await walletSale(store), await walletSale(store)];
    await store.settleOutbox(owed[1]!, { state: 'done', answerStatus: 'OK', balanceCents: 4900 }, new Date());
    const backlog = await store.walletBacklog();
    const pending = (await store.unsettledOutbox()).filter((e) => e.state === 'pending');
    expect(pending.map((e) => e.requestId)).toEqual([owed[0]]);
    expect(backlog).toEqual({
      pendingOutbox: 1,
      oldestPendingAt: pending[0]!.createdAt,
      // The two sold bets have their outcome; the one only recorded has none yet.
      betsWithoutOutcome: 1,
      oldestBetAt: sending.createdAt,
    });
  });

  it('the ledger check finds a balance changed behind the ledger’s back', async () => {
    const player = await store.createDemoPlayer(1000, new Date());
    ok(await buy(store, player.id, 100));
    await expectLedgerOk(store);
    // A cursor moved past an unsold unit is a gap: the check must see it.
    await testBook(store).forceBlockCursor(blockIds[0]!, 5);
    const report = await store.readSnapshot(() => auditLedger(store, library));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/cursor at 5 but 1 units sold/);
  });
});

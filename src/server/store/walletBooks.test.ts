import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UUID_V7, uuidV7Millis } from '../../common/uuidV7.ts';
import type { StakeCents } from '../../rules/index.ts';
import type { BlockLibrary } from '../blocks/blockLibrary.ts';
import { auditLedger } from '../ops/ledgerAudit.ts';
import { testLibrary } from '../testing/blockCache.ts';
import { addTestBlocks } from '../testing/harness.ts';
import { storeKinds, type OpenedStore } from '../testing/stores.ts';
import { newWalletBet, walletBuyRequest } from '../testing/walletBets.ts';
import type { BuyRequest, NewWalletBet, Store } from './types.ts';
import { testBook } from '../testing/testBook.ts';

/**
 * The game's books of the operator's wallet, run against every store: a bet recorded
 * before it is sent, settled by the sale's own transaction (a win owed) or cancelled with
 * its rollback owed, the outbox taken by one sender at a time, and the ledger audit's
 * wallet checks.
 */
const kinds = await storeKinds();

let library: BlockLibrary;
beforeAll(async () => {
  library = await testLibrary();
});

const PLAYER = 'portal-alice';
const later = (ms: number) => new Date(Date.now() + ms);

const newBet = (playId: string = randomUUID(), stakeCents: StakeCents = 100, deadlineMs = 5000) =>
  newWalletBet({ playerId: PLAYER, playId, stakeCents, deadlineMs });

const walletBuy = (bet: NewWalletBet, more: Partial<BuyRequest> = {}) => walletBuyRequest(bet, 4900, more);

describe.each(kinds)('$name store: wallet books', (kind) => {
  let opened: OpenedStore;
  let store: Store;

  beforeEach(async (context) => {
    if (!kind.available) return context.skip();
    opened = await kind.open(library);
    store = opened.store;
    await addTestBlocks(store, ['demo', 'real']);
    await store.ensurePortalPlayer(PLAYER, new Date());
  });
  afterEach(async () => {
    await opened?.destroy();
  });
  afterAll(() => {
    if (!kind.available) console.warn(`${kind.name} wallet books tests skipped: database not reachable`);
  });

  async function expectLedgerOk() {
    const report = await store.readSnapshot(() => auditLedger(store, library));
    expect(report.problems).toEqual([]);
  }

  it('records a bet once per playId, and never for a playId a play already has', async () => {
    const bet = newBet();
    expect(await store.recordWalletBet(bet)).toEqual({ recorded: true });
    const again = await store.recordWalletBet({ ...newBet(bet.playId), requestId: randomUUID() });
    expect(again).toMatchObject({ recorded: false, bet: { requestId: bet.requestId, state: 'sending' } });
    const demo = await store.createDemoPlayer(1000, new Date());
    const played = await store.buyPlay({
      playerId: demo.id,
      playId: randomUUID(),
      stakeCents: 100,
      pool: 'demo',
      salesOpen: true,
      now: new Date(),
    });
    if (!played.ok) throw new Error(played.code);
    expect(await store.recordWalletBet(newBet(played.play.playId))).toEqual({ recorded: false, bet: null });
  });

  it('a sale settles its bet: the unit sold, its win owed, money on the wallet mirror, no game balance moved', async () => {
    const bet = newBet();
    await store.recordWalletBet(bet);
    const request = walletBuy(bet);
    const result = await store.buyPlay(request);
    if (!result.ok) throw new Error(result.code);
    const { play } = result;
    expect(play).toMatchObject({ balanceBeforeCents: 5000, balanceAfterCents: 4900 + play.winCents });
    expect((await store.getPlayer(PLAYER))!.balanceCents).toBe(0);
    expect(await store.walletBet(bet.playId)).toMatchObject({ state: 'sold' });
    const [owed, ...rest] = await store.unsettledOutbox();
    expect(rest).toEqual([]);
    expect(owed).toMatchObject({
      requestId: request.wallet!.settlementRequestId,
      kind: 'win',
      betRequestId: bet.requestId,
      playId: bet.playId,
      walletPlayerId: 'alice',
      amountCents: play.winCents,
      state: 'pending',
      attempts: 0,
    });
    expect(await store.walletBalance(PLAYER)).toMatchObject({ balanceCents: 4900 });
    await expectLedgerOk();
    // Another request settling the same bet sells nothing.
    const twice = await store.buyPlay({ ...walletBuy(bet), playId: randomUUID() });
    expect(twice).toEqual({ ok: false, code: 'WALLET_UNAVAILABLE' });
  });

  it('a bet that sells nothing is cancelled with its rollback owed, in the same transaction', async () => {
    const closed = newBet();
    await store.recordWalletBet(closed);
    const request = walletBuy(closed, { salesOpen: false });
    expect(await store.buyPlay(request)).toEqual({ ok: false, code: 'SALES_CLOSED' });
    expect(await store.walletBet(closed.playId)).toMatchObject({ state: 'cancelled' });
    expect(await store.unsettledOutbox()).toMatchObject([
      {
        requestId: request.wallet!.settlementRequestId,
        kind: 'rollback',
        amountCents: 100,
        betRequestId: closed.requestId,
      },
    ]);
    await testBook(store).closeBlocksOfStake(200);
    const soldOut = newBet(randomUUID(), 200);
    await store.recordWalletBet(soldOut);
    expect(await store.buyPlay(walletBuy(soldOut))).toEqual({ ok: false, code: 'SOLD_OUT' });
    expect((await store.unsettledOutbox()).map((e) => [e.kind, e.amountCents])).toEqual([
      ['rollback', 100],
      ['rollback', 200],
    ]);
    await expectLedgerOk();
  });

  it('cancels a bet once: a sale after the cancellation sells nothing, and stale bets are rolled back by anyone', async () => {
    const bet = newBet();
    await store.recordWalletBet(bet);
    expect(await store.cancelWalletBet(bet.requestId, randomUUID(), new Date(), new Date())).toBe(true);
    expect(await store.cancelWalletBet(bet.requestId, randomUUID(), new Date(), new Date())).toBe(false);
    expect(await store.buyPlay(walletBuy(bet))).toEqual({ ok: false, code: 'WALLET_UNAVAILABLE' });

    const stale = newBet(randomUUID(), 100, -1);
    const fresh = newBet(randomUUID(), 100, 60_000);
    await store.recordWalletBet(stale);
    await store.recordWalletBet(fresh);
    expect(await store.cancelStaleWalletBets(new Date())).toBe(1);
    expect(await store.cancelStaleWalletBets(new Date())).toBe(0);
    expect((await store.unresolvedWalletBets()).map((b) => b.requestId)).toEqual([fresh.requestId]);
    const owed = await store.unsettledOutbox();
    expect(owed.map((e) => e.betRequestId).sort()).toEqual([bet.requestId, stale.requestId].sort());
    // The stale bet's rollback is named by the store: a time-ordered UUIDv7, as every id the game makes.
    const staleRollback = owed.find((e) => e.betRequestId === stale.requestId)!;
    expect(staleRollback.requestId).toMatch(UUID_V7);
    expect(Math.abs(uuidV7Millis(staleRollback.requestId) - Date.now())).toBeLessThan(60_000);
    // A refusal settles nothing and owes nothing.
    await store.refuseWalletBet(fresh.requestId, 'LIMIT_REACHED', new Date());
    expect(await store.walletBet(fresh.playId)).toMatchObject({ state: 'refused', refusal: 'LIMIT_REACHED' });
    expect(await store.unsettledOutbox()).toHaveLength(2);
    await expectLedgerOk();
  });

  it('hands each due entry to one sender at a time; retries and settles it', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const bet = newBet();
      await store.recordWalletBet(bet);
      const request = walletBuy(bet);
      request.wallet!.heldUntil = new Date(Date.now() - 1000);
      const result = await store.buyPlay(request);
      if (!result.ok) throw new Error(result.code);
      ids.push(request.wallet!.settlementRequestId);
    }
    const now = new Date();
    const [a, b] = await Promise.all([
      store.claimOutbox(now, 4, later(10_000)),
      store.claimOutbox(now, 4, later(10_000)),
    ]);
    const taken = [...a, ...b].map((e) => e.requestId);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort()).toEqual([...ids].sort());
    expect(await store.claimOutbox(new Date(), 10, later(10_000))).toEqual([]);

    await store.retryOutbox(ids[0]!, new Date(Date.now() - 1), 'no answer within 2000 ms');
    const [again] = await store.claimOutbox(new Date(), 10, later(10_000));
    expect(again).toMatchObject({ requestId: ids[0], attempts: 1, lastError: 'no answer within 2000 ms' });
    await store.settleOutbox(ids[0]!, { state: 'done', answerStatus: 'OK', balanceCents: 7000 }, new Date());
    await store.settleOutbox(ids[1]!, { state: 'failed', answerStatus: 'UNKNOWN_BET', balanceCents: null }, new Date());
    const unsettled = await store.unsettledOutbox();
    expect(unsettled).toHaveLength(5);
    expect(unsettled.find((e) => e.requestId === ids[1])).toMatchObject({
      state: 'failed',
      answerStatus: 'UNKNOWN_BET',
    });
    expect(await store.walletBalance(PLAYER)).toMatchObject({ balanceCents: 7000 });
    // An older answer never replaces a newer balance.
    await store.noteWalletBalance(PLAYER, 1, new Date(Date.now() - 60_000));
    expect(await store.walletBalance(PLAYER)).toMatchObject({ balanceCents: 7000 });
    const calls = await store.walletCalls(new Date(Date.now() - 60_000), later(1000));
    expect(calls.bets).toHaveLength(6);
    expect(calls.outbox).toHaveLength(6);
    await expectLedgerOk();
  });
});

import { uuidV7 } from '../../common/uuidV7.ts';
import type { StakeCents } from '../../rules/index.ts';
import { callWallet } from '../../walletApi/client.ts';
import { WALLET_CURRENCY } from '../../walletApi/contract.ts';
import type { WalletSettings } from '../config.ts';
import type {
  BlockBook,
  BuyRefusal,
  BuyResult,
  PlayBook,
  PlayRecord,
  WalletBetRecord,
  WalletBook,
} from '../store/types.ts';
import { OutboxDrainer, type DrainerOptions } from './outboxDrainer.ts';
import { refusalOf, WALLET_UNAVAILABLE, type WalletRefusal } from './refusals.ts';
import { holdMs, sendSettlement } from './settlement.ts';
import { StakesOnSale } from './stakesOnSale.ts';

export interface WalletPlayRequest {
  /** The game's id of the player, and the operator's. */
  playerId: string;
  operatorPlayerId: string;
  playId: string;
  stakeCents: StakeCents;
  salesOpen: boolean;
  /** The play's time as the game records it (the app's clock). */
  now: Date;
}

export type WalletPlayResult =
  | { ok: true; play: PlayRecord; balanceCents: number; replayed: boolean }
  | { ok: false; code: BuyRefusal | WalletRefusal['code']; message?: string }
  /** The stake's next real block had no published root: the bet is rolled back, nothing sold. */
  | Extract<BuyResult, { code: 'ROOT_PENDING' }>;

export type WalletBalance = { ok: true; balanceCents: number } | { ok: false; refusal: WalletRefusal };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Portal players' money at the operator's wallet (`../shared/spec/wallet-api.md`). A play
 * is a bet recorded, then sent (retried under its requestId until its deadline); answered
 * OK, the unit is sold and its win owed in one transaction, then the win is sent at once
 * and, unanswered, left to the outbox. A bet whose outcome stays unknown, or that sells
 * nothing, is rolled back through the outbox. The game never decides a balance: it shows
 * the wallet's latest answer.
 */
export class OperatorWallet {
  readonly drainer: OutboxDrainer;
  /** How long a bet may stay without a known outcome before it is rolled back. */
  readonly betDeadlineMs: number;
  /** Asked before betting, so that no bet is sent for a stake sold out. */
  private readonly stakesOnSale: StakesOnSale;

  constructor(
    private readonly store: PlayBook & WalletBook & Pick<BlockBook, 'stakesWithUnits'>,
    private readonly settings: WalletSettings,
    options: DrainerOptions = {},
  ) {
    this.drainer = new OutboxDrainer(store, settings, options);
    this.betDeadlineMs = 3 * settings.timeoutMs + 1000;
    // Portal players' money is real: only real blocks sell to it.
    this.stakesOnSale = new StakesOnSale(store, 'real');
  }

  /** The balance at the wallet now; unanswered, the last one it gave. */
  async balance(playerId: string, operatorPlayerId: string): Promise<WalletBalance> {
    const result = await callWallet(
      this.settings.url,
      this.settings.keyring,
      'balance',
      { requestId: uuidV7(), playerId: operatorPlayerId },
      { timeoutMs: this.settings.timeoutMs, connections: this.settings.connections },
    );
    if (result.kind === 'answer' && result.body.status === 'OK') {
      await this.store.noteWalletBalance(playerId, result.body.balanceCents, new Date());
      return { ok: true, balanceCents: result.body.balanceCents };
    }
    if (result.kind === 'answer') return { ok: false, refusal: refusalOf(result.body.status) };
    const last = await this.store.walletBalance(playerId);
    return last ? { ok: true, balanceCents: last.balanceCents } : { ok: false, refusal: WALLET_UNAVAILABLE };
  }

  /** The wallet's latest balance as the game heard it (0 before any answer). */
  async lastBalance(playerId: string): Promise<number> {
    return (await this.store.walletBalance(playerId))?.balanceCents ?? 0;
  }

  async buy(request: WalletPlayRequest): Promise<WalletPlayResult> {
    const { playerId, playId, stakeCents } = request;
    const created = new Date();
    const bet = {
      requestId: uuidV7(),
      playId,
      playerId,
      walletPlayerId: request.operatorPlayerId,
      stakeCents,
      createdAt: created.toISOString(),
      deadlineAt: new Date(created.getTime() + this.betDeadlineMs).toISOString(),
    };
    // Checked before anything is sent; a playId seen before is answered as it was even then.
    if (!request.salesOpen) return (await this.knownPlay(request)) ?? { ok: false, code: 'SALES_CLOSED' };
    if (!(await this.stakesOnSale.has(stakeCents)))
      return (await this.knownPlay(request)) ?? { ok: false, code: 'SOLD_OUT' };

    // Durable before it is sent: a crash from here on leaves a bet that any instance rolls back.
    // Recorded only for a playId never seen (the common case costs no lookup before it).
    const recorded = await this.store.recordWalletBet(bet);
    if (!recorded.recorded) return (await this.knownPlay(request)) ?? { ok: false, code: 'PLAY_ID_REUSED' };

    const answer = await this.sendBet(bet);
    if (answer.kind === 'refused') {
      await this.store.refuseWalletBet(bet.requestId, answer.status, new Date());
      return { ok: false, ...refusalOf(answer.status) };
    }
    if (answer.kind === 'unknown') {
      await this.cancel(bet.requestId);
      return { ok: false, ...WALLET_UNAVAILABLE };
    }

    const settlementRequestId = uuidV7();
    let result: BuyResult;
    try {
      result = await this.store.buyPlay({
        playerId,
        playId,
        stakeCents,
        pool: 'real',
        salesOpen: request.salesOpen,
        now: request.now,
        wallet: {
          betRequestId: bet.requestId,
          walletPlayerId: request.operatorPlayerId,
          betBalanceCents: answer.balanceCents,
          settlementRequestId,
          heldUntil: new Date(Date.now() + holdMs(this.settings)),
        },
      });
    } catch (error) {
      // Nothing was sold: the bet is reversed (or, if even that cannot be written, its
      // deadline passes and any instance reverses it).
      await this.cancel(bet.requestId).catch(() => {});
      throw error;
    }
    if (!result.ok) {
      // The sale's transaction wrote the rollback owed: send it now.
      this.drainer.kick();
      return result;
    }
    const balanceCents = await this.sendWin(
      result.play,
      request.operatorPlayerId,
      settlementRequestId,
      bet.requestId,
      answer.balanceCents,
    );
    return { ok: true, play: result.play, balanceCents, replayed: false };
  }

  /** A playId already used: its play (replayed), its refusal, or a reuse. */
  private async knownPlay(request: WalletPlayRequest): Promise<WalletPlayResult | null> {
    const { playerId, playId, stakeCents } = request;
    let bet = await this.store.walletBet(playId);
    if (bet === null) {
      const play = await this.store.getPlay(playerId, playId);
      if (play) return this.replay(play, stakeCents);
      return null;
    }
    if (bet.playerId !== playerId || bet.stakeCents !== stakeCents) return { ok: false, code: 'PLAY_ID_REUSED' };
    bet = await this.settled(bet);
    switch (bet.state) {
      case 'sold': {
        const play = await this.store.getPlay(playerId, playId);
        return play ? this.replay(play, stakeCents) : { ok: false, ...WALLET_UNAVAILABLE };
      }
      case 'refused':
        return { ok: false, ...refusalOf(bet.refusal ?? '') };
      default:
        // Cancelled, or still without an outcome: nothing was sold under this playId.
        return { ok: false, ...WALLET_UNAVAILABLE };
    }
  }

  private async replay(play: PlayRecord, stakeCents: StakeCents): Promise<WalletPlayResult> {
    if (play.stakeCents !== stakeCents) return { ok: false, code: 'PLAY_ID_REUSED' };
    return { ok: true, play, balanceCents: await this.lastBalance(play.playerId), replayed: true };
  }

  /** A bet another request is sending: waits for its outcome, until a little past its deadline. */
  private async settled(bet: WalletBetRecord): Promise<WalletBetRecord> {
    const until = Date.parse(bet.deadlineAt) + 1000;
    while (bet.state === 'sending' && Date.now() < until) {
      await sleep(100);
      bet = (await this.store.walletBet(bet.playId)) ?? bet;
    }
    return bet;
  }

  /** The bet, under one requestId, as many times as its deadline allows. */
  private async sendBet(bet: {
    requestId: string;
    playId: string;
    walletPlayerId: string;
    stakeCents: number;
    deadlineAt: string;
  }): Promise<{ kind: 'ok'; balanceCents: number } | { kind: 'refused'; status: string } | { kind: 'unknown' }> {
    const deadline = Date.parse(bet.deadlineAt);
    const body = {
      requestId: bet.requestId,
      playerId: bet.walletPlayerId,
      roundId: bet.playId,
      amountCents: bet.stakeCents,
      currency: WALLET_CURRENCY,
    } as const;
    for (let attempt = 0; ; attempt++) {
      // The whole call must end before the deadline, when any instance may roll the bet back.
      const left = deadline - Date.now() - 250;
      if (left < Math.min(this.settings.timeoutMs, 250)) return { kind: 'unknown' };
      const result = await callWallet(this.settings.url, this.settings.keyring, 'bet', body, {
        timeoutMs: Math.min(this.settings.timeoutMs, left),
        connections: this.settings.connections,
      });
      if (result.kind === 'answer') {
        if (result.body.status === 'OK') return { kind: 'ok', balanceCents: result.body.balanceCents };
        return { kind: 'refused', status: result.body.status };
      }
      await sleep(Math.min(50 * 2 ** attempt, 400));
    }
  }

  /** Reverses a bet without a sale: the rollback is owed now and sent by the outbox. */
  private async cancel(betRequestId: string): Promise<void> {
    await this.store.cancelWalletBet(betRequestId, uuidV7(), new Date(), new Date());
    this.drainer.kick();
  }

  /** Sends a sold unit's win at once; unanswered, the outbox retries it. The balance to show. */
  private async sendWin(
    play: PlayRecord,
    operatorPlayerId: string,
    requestId: string,
    betRequestId: string,
    betBalanceCents: number,
  ): Promise<number> {
    const { outcome, recorded } = await sendSettlement(this.store, this.settings, {
      requestId,
      kind: 'win',
      betRequestId,
      playId: play.playId,
      walletPlayerId: operatorPlayerId,
      amountCents: play.winCents,
      attempts: 0,
    });
    // Not waited for: if this record is lost, the outbox sends the same win again, which the
    // wallet answers as before (same requestId), and records it then.
    recorded.catch(() => this.drainer.kick());
    if (outcome.kind === 'settled' && outcome.balanceCents !== null) return outcome.balanceCents;
    this.drainer.kick();
    return betBalanceCents;
  }
}

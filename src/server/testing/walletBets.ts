import { randomUUID } from 'node:crypto';
import type { StakeCents } from '../../rules/index.ts';
import type { BuyRequest, NewWalletBet } from '../store/types.ts';

/** A bet as the game records it before sending it: `deadlineMs` from now (negative: already past). */
export function newWalletBet(options: {
  playerId: string;
  playId?: string;
  stakeCents?: StakeCents;
  deadlineMs: number;
}): NewWalletBet {
  const now = new Date();
  return {
    requestId: randomUUID(),
    playId: options.playId ?? randomUUID(),
    playerId: options.playerId,
    walletPlayerId: 'alice',
    stakeCents: options.stakeCents ?? 100,
    createdAt: now.toISOString(),
    deadlineAt: new Date(now.getTime() + options.deadlineMs).toISOString(),
  };
}

/** The sale of a bet answered OK with `betBalanceCents`; its win is owed under `wallet.settlementRequestId`. */
export function walletBuyRequest(
  bet: NewWalletBet,
  betBalanceCents: number,
  more: Partial<BuyRequest> = {},
): BuyRequest {
  return {
    playerId: bet.playerId,
    playId: bet.playId,
    stakeCents: bet.stakeCents,
    pool: 'real',
    salesOpen: true,
    now: new Date(),
    wallet: {
      betRequestId: bet.requestId,
      walletPlayerId: bet.walletPlayerId,
      betBalanceCents,
      settlementRequestId: randomUUID(),
      heldUntil: new Date(Date.now() + 60_000),
    },
    ...more,
  };
}

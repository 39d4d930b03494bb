import type { SalesCalendar } from '../salesWindow/salesCalendar.ts';
import type { BuyRefusal, PlayBook, PlayerBook, PlayRecord } from '../store/types.ts';
import type { OperatorWallet } from '../operatorWallet/operatorWallet.ts';
import { WALLET_UNAVAILABLE, type WalletRefusal } from '../operatorWallet/refusals.ts';
import { choosePurse, type Purse, type PurseBuy } from './purses.ts';
import type { SaleRoots } from './roots.ts';

/** A « Jouer » as the route hands it over: the player, the playId, the stake, the time. */
export type SaleRequest = Omit<PurseBuy, 'salesOpen'>;

export type SaleResult =
  | { ok: true; play: PlayRecord; balanceCents: number; replayed: boolean }
  | { ok: false; code: BuyRefusal | WalletRefusal['code']; message?: string };

/** Told of every unit sold (the demo pool's supply watches its blocks run down). */
export interface SaleWatcher {
  sold(play: PlayRecord): void;
}

export interface SaleRoomDeps {
  store: PlayBook & PlayerBook;
  roots: SaleRoots;
  sales: SalesCalendar;
  wallet: OperatorWallet | null;
  watcher?: SaleWatcher | null;
  /** The time of a sale that had to wait for a block's publication (the request's time otherwise). */
  clock?: () => Date;
}

/** More blocks met without a root in one sale than can be loaded meanwhile: something is wrong. */
const MAX_ROOT_WAITS = 3;

/**
 * The one sale path. The purse (demo ledger, the game's own real ledger, the operator's
 * wallet) and with it the pool are chosen once from the session; the sale then waits for
 * the roots of the pool's blocks, and the purse takes the money and the unit.
 */
export class SaleRoom {
  constructor(private readonly deps: SaleRoomDeps) {}

  /** Where this player's money lives, and which pool sells to them. */
  purseOf(playerId: string): Purse {
    return choosePurse(playerId, this.deps.store, this.deps.wallet);
  }

  async sell(request: SaleRequest): Promise<SaleResult> {
    const { roots, sales, watcher } = this.deps;
    const clock = this.deps.clock ?? (() => new Date());
    const purse = this.purseOf(request.playerId);
    let now = request.now;
    for (let waits = 0; ; waits++) {
      // No unit is sold before its block's root is published and logged in a signed head: a
      // play right after a start, or when the pool's next block was just put on sale, waits
      // for it here. A sale that waited is timed after: after the head's (the store checks).
      if (await roots.ready(request.stakeCents, purse.pool)) now = clock();
      const result = await purse.buy({ ...request, now, salesOpen: sales.isOpen(now) });
      if (result.ok) {
        if (!result.replayed) watcher?.sold(result.play);
        return result;
      }
      if (result.code !== 'ROOT_PENDING') return result;
      // A block loaded elsewhere a moment ago, reached before this server knew of it: the
      // store sold nothing. Its root first; then the same play again, where nothing moved.
      if (waits >= MAX_ROOT_WAITS) throw new Error(`play ${request.playId}: no block with a published root`);
      await roots.reached(result.block);
      if (!purse.sellsAgainAfterRoot) return { ok: false, ...WALLET_UNAVAILABLE };
      now = clock();
    }
  }
}

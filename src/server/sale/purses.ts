import { operatorPlayerId } from '../portalPlayer.ts';
import type { BlockPool, BuyResult, PlayBook, PlayerBook, PlayerRecord } from '../store/types.ts';
import type {
  OperatorWallet,
  WalletBalance,
  WalletPlayRequest,
  WalletPlayResult,
} from '../operatorWallet/operatorWallet.ts';

/** One play as a purse pays for it: the wallet's request without the operator's id. */
export type PurseBuy = Omit<WalletPlayRequest, 'operatorPlayerId'>;

export type PurseResult = BuyResult | WalletPlayResult;

/**
 * Where a player's money lives, and so which pool sells to them: chosen once per request
 * from the session (`choosePurse`), never tested again on the way.
 */
export interface Purse {
  readonly kind: 'demo-ledger' | 'own-ledger' | 'wallet';
  readonly pool: BlockPool;
  /**
   * Whether a play refused with ROOT_PENDING may be sold again under its playId once the
   * root is published: yes on the game's ledger (nothing moved); no at the wallet, whose
   * bet was rolled back already.
   */
  readonly sellsAgainAfterRoot: boolean;
  buy(play: PurseBuy): Promise<PurseResult>;
  /** The balance to show now of a player the game knows (the wallet is asked). */
  balance(player: PlayerRecord): Promise<WalletBalance>;
  /** The balance as last known (the wallet is not asked again on every step of a round). */
  lastBalance(playerId: string): Promise<number | null>;
}

/** Money in the game's own double-entry ledger: play money for demo players, real for portal players. */
class LedgerPurse implements Purse {
  readonly sellsAgainAfterRoot = true;
  readonly pool: BlockPool;

  constructor(
    readonly kind: 'demo-ledger' | 'own-ledger',
    private readonly store: PlayBook & PlayerBook,
  ) {
    this.pool = kind === 'demo-ledger' ? 'demo' : 'real';
  }

  buy(play: PurseBuy): Promise<PurseResult> {
    return this.store.buyPlay({ ...play, pool: this.pool });
  }

  async balance(player: PlayerRecord): Promise<WalletBalance> {
    return { ok: true, balanceCents: player.balanceCents };
  }

  async lastBalance(playerId: string): Promise<number | null> {
    return (await this.store.getPlayer(playerId))?.balanceCents ?? null;
  }
}

/** A portal player's money at the operator's wallet: always real money. */
class WalletPurse implements Purse {
  readonly kind = 'wallet';
  readonly pool = 'real';
  readonly sellsAgainAfterRoot = false;

  constructor(
    private readonly wallet: OperatorWallet,
    private readonly operatorId: string,
  ) {}

  buy(play: PurseBuy): Promise<PurseResult> {
    return this.wallet.buy({ ...play, operatorPlayerId: this.operatorId });
  }

  balance(player: PlayerRecord): Promise<WalletBalance> {
    return this.wallet.balance(player.id, this.operatorId);
  }

  lastBalance(playerId: string): Promise<number | null> {
    return this.wallet.lastBalance(playerId);
  }
}

/**
 * The purse of a session's player: a demo player's play money in the game's ledger (demo
 * pool); a portal player's real money at the operator's wallet when one is configured, else
 * in the game's own ledger (real pool).
 */
export function choosePurse(playerId: string, store: PlayBook & PlayerBook, wallet: OperatorWallet | null): Purse {
  const operatorId = operatorPlayerId(playerId);
  if (operatorId === null) return new LedgerPurse('demo-ledger', store);
  if (wallet) return new WalletPurse(wallet, operatorId);
  return new LedgerPurse('own-ledger', store);
}

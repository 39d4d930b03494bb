import type { Cents, StakeCents } from '../../rules/index.ts';
import type { Launched } from '../../contract/api.ts';
import type { PlayBatchObserver } from './batchObserver.ts';
import type { DemoReloadRequest, DemoReloadResult } from './demoReload.ts';
import type { StoreDialect } from './dialect.ts';
import type {
  BlockPool,
  BlockRecord,
  BuyRequest,
  BuyResult,
  DemoPurge,
  IdleDemoPlayer,
  LedgerFacts,
  NewBlock,
  NewWalletBet,
  OutboxEntry,
  PlayerRecord,
  PlayRecord,
  PlaysQuery,
  RecordBetResult,
  SalesControl,
  SoldLot,
  SoldUnit,
  WalletBacklog,
  WalletBetRecord,
  WalletFacts,
} from './types.ts';

/**
 * The server's persistence in parts, one interface each, so that every consumer takes the
 * part it uses and never knows which database holds the money. Every method is async so
 * that a networked database (PostgreSQL) fits without touching the consumers; the SQLite
 * store resolves at once or after its group commit.
 */

export interface PlayerBook {
  /** A new demo player, funded from house:demo-funding through the ledger. */
  createDemoPlayer(balanceCents: Cents, now: Date): Promise<PlayerRecord>;
  /** The portal's player, created with a zero balance on first sight. */
  ensurePortalPlayer(playerId: string, now: Date): Promise<PlayerRecord>;
  getPlayer(playerId: string): Promise<PlayerRecord | null>;
  /**
   * « Recharger la démo »: a demo player's play money back to the starting balance, as a
   * funding in the ledger, once per reloadId (a retry answers the balance again); durable
   * when it resolves.
   */
  reloadDemo(request: DemoReloadRequest): Promise<DemoReloadResult>;
}

/** Demo players unused for DEMO_PLAYER_TTL_DAYS, found and removed (demoPurge.ts). */
export interface DemoPurgeBook {
  /**
   * Demo players unused since `cutoff` (created before it, no play since) whose every play is a
   * demo block's: a page of them, oldest first, after `after` (null: from the oldest). Reads only.
   */
  idleDemoPlayers(cutoff: Date, page: { after: IdleDemoPlayer | null; limit: number }): Promise<IdleDemoPlayer[]>;
  /**
   * Removes those of `playerIds` still idle at `cutoff` (checked again under lock) with their
   * plays and ledger transactions, counting the plays per block and lot in purged_plays: one
   * transaction, on disk when it resolves. Never a portal player, a real or a pre-pools play.
   */
  purgeDemoPlayers(playerIds: readonly string[], cutoff: Date): Promise<DemoPurge>;
}

export interface PlayBook {
  /** The one transaction of a « Jouer ». */
  buyPlay(request: BuyRequest): Promise<BuyResult>;
  /** Reports every play batch to `observer` from now on (null: to nobody). */
  observePlayBatches(observer: PlayBatchObserver | null): void;
  getPlay(playerId: string, playId: string): Promise<PlayRecord | null>;
  listPlays(query: PlaysQuery): Promise<{ plays: PlayRecord[]; more: boolean }>;
  latestUnfinishedPlay(playerId: string): Promise<PlayRecord | null>;
  /** Marks wheels as launched (never un-launches); null when the play is not this player's. */
  recordProgress(playerId: string, playId: string, launched: Launched): Promise<PlayRecord | null>;
  finishPlay(playerId: string, playId: string): Promise<PlayRecord | null>;
}

/** The blocks on sale, as operations load, close and count them. */
export interface BlockBook {
  /** Puts a verified block on sale (queued behind the open one of its stake and pool, or open). */
  addBlock(block: NewBlock, now: Date): Promise<BlockRecord>;
  listBlocks(): Promise<BlockRecord[]>;
  /** The stakes that still have a unit to sell in the pool. */
  stakesWithUnits(pool: BlockPool): Promise<Set<StakeCents>>;
  /** Ends a block's sale: its remaining units are never sold. Null: no such block. */
  closeBlock(blockId: string): Promise<BlockRecord | null>;
  /** Per block, the units sold since `since` (operations: the rate of sale; reads every play of the period). */
  unitsSoldSince(since: Date): Promise<{ blockId: string; count: number }[]>;
  /** Per block and lot, the units sold. */
  soldLots(): Promise<SoldLot[]>;
}

export interface SalesControlBook {
  /** The operator's setting of the sales window, shared by every instance; null: none. */
  salesControl(): Promise<SalesControl | null>;
  /** Sets it (null: back to the configured dates). */
  setSalesControl(control: Omit<SalesControl, 'setAt'> | null, now: Date): Promise<void>;
}

/** What the ledger audit reads. */
export interface LedgerBook {
  /** Runs `read` on one consistent snapshot (see StoreDialect.readSnapshot). */
  readSnapshot<T>(read: () => Promise<T>): Promise<T>;
  ledgerFacts(): Promise<LedgerFacts>;
  /** Every play's block, position (null for fixtures) and stored unit, for the unit-by-unit check. */
  soldUnits(): AsyncIterable<SoldUnit>;
  walletFacts(): Promise<WalletFacts>;
}

/** The game's books of the operator's wallet: bets, the outbox of wins and rollbacks, balances. */
export interface WalletBook {
  /** Records a bet before it is sent (durable when it resolves); not if the playId is taken. */
  recordWalletBet(bet: NewWalletBet): Promise<RecordBetResult>;
  walletBet(playId: string): Promise<WalletBetRecord | null>;
  /** A final refusal: `sending` → `refused`. */
  refuseWalletBet(requestId: string, refusal: string, now: Date): Promise<void>;
  /**
   * `sending` → `cancelled`, with its rollback owed in the same transaction (due at
   * `nextAttemptAt`); false when the bet was no longer `sending`.
   */
  cancelWalletBet(requestId: string, rollbackRequestId: string, now: Date, nextAttemptAt: Date): Promise<boolean>;
  /** Cancels every bet still `sending` past its deadline, each with its rollback owed now; how many. */
  cancelStaleWalletBets(now: Date): Promise<number>;
  /**
   * Takes up to `limit` outbox entries due at `now` for sending: each becomes due again only
   * at `heldUntil`, so no other sender takes it meanwhile (PostgreSQL: skips rows that another
   * instance is taking).
   */
  claimOutbox(now: Date, limit: number, heldUntil: Date): Promise<OutboxEntry[]>;
  /** An answer that settles the entry (`done`) or needs a person (`failed`). */
  settleOutbox(
    requestId: string,
    result: { state: 'done' | 'failed'; answerStatus: string; balanceCents: Cents | null },
    now: Date,
  ): Promise<void>;
  /** No answer: tried again at `nextAttemptAt`. */
  retryOutbox(requestId: string, nextAttemptAt: Date, error: string): Promise<void>;
  /** Entries not `done`, oldest first. */
  unsettledOutbox(): Promise<OutboxEntry[]>;
  /** Bets still `sending`, oldest first. */
  unresolvedWalletBets(): Promise<WalletBetRecord[]>;
  /** Counts of the outbox entries pending and the bets still sending, and their oldest times. */
  walletBacklog(): Promise<WalletBacklog>;
  /** Every bet created in [from, to), and every outbox entry of those bets. */
  walletCalls(from: Date, to: Date): Promise<{ bets: WalletBetRecord[]; outbox: OutboxEntry[] }>;
  /** The wallet's balance as it last said it, if it ever did. */
  walletBalance(playerId: string): Promise<{ balanceCents: Cents; seenAt: string } | null>;
  /** Keeps the wallet's latest balance (an older answer never replaces a newer one). */
  noteWalletBalance(playerId: string, balanceCents: Cents, seenAt: Date): Promise<void>;
}

/** Every part of one database's store, as the server opens and closes it. */
export interface Store
  extends PlayerBook, DemoPurgeBook, PlayBook, BlockBook, SalesControlBook, LedgerBook, WalletBook {
  /** What the parts are built on; test mode builds its own part on it (src/server/testMode). */
  readonly dialect: StoreDialect;
  close(): Promise<void>;
}

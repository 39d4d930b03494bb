import type { Cents, StakeCents, Unit } from '../../rules/index.ts';
import type { ErrorCode, Launched } from '../../contract/api.ts';
import type { PlayBatchObserver } from './batchObserver.ts';
import type { DemoReloadRequest, DemoReloadResult } from './demoReload.ts';

/**
 * The server's persistence, behind one interface so that the routes never know which
 * database holds the money. Every method is async so that a networked database
 * (PostgreSQL) fits without touching the routes; the SQLite store resolves at once
 * or after its group commit.
 */

export type PlayerKind = 'demo' | 'portal';

export interface PlayerRecord {
  id: string;
  kind: PlayerKind;
  balanceCents: Cents;
}

export type BlockStatus = 'open' | 'queued' | 'closed';

/**
 * Which money a block is sold for, fixed when it is generated or loaded: `real` blocks
 * (only from `ops load`) to portal players' money, `demo` blocks (made by the server) to
 * demo players' play money. Each pool has its own open block per stake and its own queue.
 */
export type BlockPool = 'real' | 'demo';

export const BLOCK_POOLS: readonly BlockPool[] = ['real', 'demo'];

/** The pool that sells to a player of this kind. */
export function poolOfPlayer(kind: PlayerKind): BlockPool {
  return kind === 'demo' ? 'demo' : 'real';
}

export interface BlockRecord {
  id: string;
  stakeCents: StakeCents;
  pool: BlockPool;
  filePath: string;
  count: number;
  nextPosition: number;
  status: BlockStatus;
}

/** What a block is put on sale with. */
export type NewBlock = Omit<BlockRecord, 'nextPosition' | 'status'>;

/** A sold unit as stored; block and position stay inside the server. */
export interface PlayRecord {
  playId: string;
  playerId: string;
  stakeCents: StakeCents;
  /** Null for a test fixture, which comes from no block. */
  blockId: string | null;
  position: number | null;
  /** The pool of its block; null for a fixture, and for a play sold before blocks had pools. */
  pool: BlockPool | null;
  fixture: boolean;
  unit: Unit;
  bells: number;
  points: number;
  jeu1WinCents: Cents;
  jeu2WinCents: Cents;
  winCents: Cents;
  balanceBeforeCents: Cents;
  balanceAfterCents: Cents;
  launched: Launched;
  finished: boolean;
  createdAt: string;
}

/** Reads a block's units; the store asks for them inside the play's transaction, with the sale's time. */
export interface UnitSource {
  /**
   * Whether the block's units may be sold at `soldAt` (now if not given): its root is
   * published (and, where a transparency log is kept, logged in a head signed before).
   */
  isPublished(block: Pick<BlockRecord, 'id'>, soldAt?: Date): boolean;
  unitAt(block: Pick<BlockRecord, 'id' | 'filePath'>, position: number, soldAt?: Date): Unit;
}

/**
 * A portal play paid at the operator's wallet: its bet answered OK. The sale (or its
 * refusal) settles the bet in the same transaction: a sold unit owes a win, a refused one
 * a rollback, each written to the outbox under `settlementRequestId`.
 */
export interface WalletSale {
  betRequestId: string;
  /** The operator's own id of the player (the launch token's). */
  walletPlayerId: string;
  /** The wallet's balance after the bet, as its answer said. */
  betBalanceCents: Cents;
  /** The requestId of the win, or of the rollback if the sale is refused. */
  settlementRequestId: string;
  /** The selling request sends the settlement itself first: nobody else does before this. */
  heldUntil: Date;
}

export interface BuyRequest {
  playerId: string;
  playId: string;
  stakeCents: StakeCents;
  /** The pool that sells to this player; the batch refuses to sell it a unit of the other. */
  pool: BlockPool;
  /** Decided by the caller from the sales window; an existing playId is replayed even when closed. */
  salesOpen: boolean;
  /** Test mode only: sell this unit instead of the block's next one. */
  fixtureUnit?: Unit;
  /** Set for a play paid at the operator's wallet; absent for the game's own ledger. */
  wallet?: WalletSale;
  now: Date;
}

export type BuyRefusal = Extract<
  ErrorCode,
  'SALES_CLOSED' | 'INSUFFICIENT_BALANCE' | 'SOLD_OUT' | 'PLAY_ID_REUSED' | 'NOT_FOUND' | 'WALLET_UNAVAILABLE'
>;

export type BuyResult =
  | { ok: true; play: PlayRecord; balanceCents: Cents; replayed: boolean }
  | { ok: false; code: BuyRefusal }
  /**
   * The next block of the stake has no published root yet (loaded by another process a
   * moment ago): nothing was sold or taken. The sale waits for the root, then sells.
   */
  | { ok: false; code: 'ROOT_PENDING'; block: BlockRecord };

/**
 * A bet at the operator's wallet, recorded before it is sent: `sending` until its outcome
 * is known; then `sold` (answered OK, its unit sold, a win owed), `refused` (a final
 * refusal: nothing moved) or `cancelled` (unknown, or OK but not sold: a rollback owed).
 */
export type WalletBetState = 'sending' | 'sold' | 'refused' | 'cancelled';

export interface WalletBetRecord {
  requestId: string;
  playId: string;
  playerId: string;
  walletPlayerId: string;
  stakeCents: StakeCents;
  state: WalletBetState;
  /** The wallet's status when it refused. */
  refusal: string | null;
  createdAt: string;
  /** Past it, any instance rolls back a bet still `sending`. */
  deadlineAt: string;
  resolvedAt: string | null;
}

export type NewWalletBet = Pick<
  WalletBetRecord,
  'requestId' | 'playId' | 'playerId' | 'walletPlayerId' | 'stakeCents' | 'createdAt' | 'deadlineAt'
>;

export type RecordBetResult =
  | { recorded: true }
  /** The playId already has a bet (a retry, or a reuse), or a play outside the wallet. */
  | { recorded: false; bet: WalletBetRecord | null };

export type OutboxKind = 'win' | 'rollback';
/** `failed`: a final answer that settles nothing (e.g. REQUEST_ID_REUSED): for a person to look at. */
export type OutboxState = 'pending' | 'done' | 'failed';

/** A win or rollback owed to the wallet, sent until it is answered. */
export interface OutboxEntry {
  requestId: string;
  kind: OutboxKind;
  betRequestId: string;
  /** The round: the play's id. */
  playId: string;
  playerId: string;
  walletPlayerId: string;
  amountCents: Cents;
  state: OutboxState;
  attempts: number;
  /** Due then; a sender that takes the entry moves this past its call's timeout. */
  nextAttemptAt: string;
  lastError: string | null;
  answerStatus: string | null;
  /** The wallet's balance in its answer. */
  balanceCents: Cents | null;
  createdAt: string;
  settledAt: string | null;
}

/** What the ledger audit checks of the wallet's books in the game's database. */
export interface WalletFacts {
  /** Sold wallet plays without exactly one win owed or paid equal to their lot. */
  playsWithoutWin: { playId: string; winCents: Cents; owedCents: Cents | null }[];
  /** Bets marked sold without a play. */
  soldBetsWithoutPlay: string[];
  /** Bets cancelled without a rollback owed or sent. */
  cancelledBetsWithoutRollback: string[];
  /** Plays on a wallet account without a sold bet of that stake. */
  walletPlaysWithoutBet: string[];
}

/** What is still owed to or unknown at the operator's wallet, for the metrics. */
export interface WalletBacklog {
  /** Outbox entries (wins, rollbacks) not answered yet. */
  pendingOutbox: number;
  /** When the oldest of them was written (its play's time). */
  oldestPendingAt: string | null;
  /** Bets still `sending`: sent, their outcome not known yet. */
  betsWithoutOutcome: number;
  /** When the oldest of them was recorded (past its deadline, any instance rolls it back). */
  oldestBetAt: string | null;
}

export interface PlaysQuery {
  playerId: string;
  limit: number;
  /** A playId of this player: return plays older than it. */
  beforePlayId?: string;
}

/** What the ledger check needs, computed by the database. */
export interface LedgerFacts {
  totalCents: Cents;
  /** Transactions whose entries do not sum to zero. */
  unbalancedTransactions: { txn: string; sumCents: Cents }[];
  /** Per play: stake debited from the player, lots credited to the player, and entry counts. */
  playEntries: Map<string, { stakeDebits: number; stakeCents: Cents; prizeCredits: number; prizeCents: Cents }>;
  /** Per demo block and lot, the plays purged with their idle players (their units stay sold) and their positions' sum. */
  purgedPlays: { blockId: string; lotCents: Cents; plays: number; positionSum: number }[];
  /** Player balances next to the sum of their ledger entries. */
  balances: { playerId: string; balanceCents: Cents; entriesCents: Cents }[];
  /** Per block and lot, how many units were sold. */
  soldLots: { blockId: string; lotCents: Cents; count: number }[];
  /** Per pool the play records (null: sold before pools), block pool and player kind: each with its plays and money. */
  poolPlays: {
    playPool: BlockPool | null;
    blockPool: BlockPool;
    playerKind: PlayerKind;
    plays: number;
    stakesCents: Cents;
    prizesCents: Cents;
  }[];
  /** Per block, the sold positions' count, min, max and sum (of the plays kept), next to its cursor. */
  blockCursors: {
    block: BlockRecord;
    sold: number;
    minPosition: number | null;
    maxPosition: number | null;
    positionSum: number;
  }[];
  /** (block, position) pairs sold more than once (the schema forbids it; checked anyway). */
  duplicateUnits: { blockId: string; position: number; count: number }[];
}

export interface SoldUnit {
  playId: string;
  blockId: string | null;
  position: number | null;
  unit: Unit;
  winCents: Cents;
}

/** The sales window as the operator set it (`npm run ops -- sales open|close`); none: the configured dates. */
export interface SalesControl {
  mode: 'open' | 'closed';
  /** Shown while closed; null: the configured message. */
  message: string | null;
  setAt: string;
}

/** A demo player the purge may remove, and how many plays go with them. */
export interface IdleDemoPlayer {
  playerId: string;
  /** When it was created: pages go by age. */
  createdAt: string;
  plays: number;
}

/** What one purge transaction removed. */
export interface DemoPurge {
  playerIds: string[];
  plays: number;
}

/** Units sold of one lot in one block (fixtures excluded; purged demo plays included). */
export interface SoldLot {
  blockId: string;
  lotCents: Cents;
  count: number;
}

export interface Store {
  close(): Promise<void>;

  /** Reports every play batch to `observer` from now on (null: to nobody). */
  observePlayBatches(observer: PlayBatchObserver | null): void;

  /** The operator's setting of the sales window, shared by every instance; null: none. */
  salesControl(): Promise<SalesControl | null>;
  /** Sets it (null: back to the configured dates). */
  setSalesControl(control: Omit<SalesControl, 'setAt'> | null, now: Date): Promise<void>;
  /** Per block and lot, the units sold. */
  soldLots(): Promise<SoldLot[]>;

  /** A new demo player, funded from house:demo-funding through the ledger. */
  createDemoPlayer(balanceCents: Cents, now: Date): Promise<PlayerRecord>;
  /** The portal's player, created with a zero balance on first sight. */
  ensurePortalPlayer(playerId: string, now: Date): Promise<PlayerRecord>;
  getPlayer(playerId: string): Promise<PlayerRecord | null>;

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

  /** Puts a verified block on sale (queued behind the open one of its stake and pool, or open). */
  addBlock(block: NewBlock, now: Date): Promise<BlockRecord>;
  listBlocks(): Promise<BlockRecord[]>;
  /** The stakes that still have a unit to sell in the pool. */
  stakesWithUnits(pool: BlockPool): Promise<Set<StakeCents>>;

  /** The one transaction of a « Jouer ». */
  buyPlay(request: BuyRequest): Promise<BuyResult>;
  getPlay(playerId: string, playId: string): Promise<PlayRecord | null>;
  listPlays(query: PlaysQuery): Promise<{ plays: PlayRecord[]; more: boolean }>;
  latestUnfinishedPlay(playerId: string): Promise<PlayRecord | null>;
  /** Marks wheels as launched (never un-launches); null when the play is not this player's. */
  recordProgress(playerId: string, playId: string, launched: Launched): Promise<PlayRecord | null>;
  finishPlay(playerId: string, playId: string): Promise<PlayRecord | null>;

  /**
   * « Recharger la démo »: a demo player's play money back to the starting balance, as a
   * funding in the ledger, once per reloadId (a retry answers the balance again); durable
   * when it resolves.
   */
  reloadDemo(request: DemoReloadRequest): Promise<DemoReloadResult>;

  /** Test mode and operations: a ledger adjustment against house:adjustments. */
  setBalance(playerId: string, balanceCents: Cents, now: Date): Promise<PlayerRecord | null>;
  /** Ends a block's sale: its remaining units are never sold. Null: no such block. */
  closeBlock(blockId: string): Promise<BlockRecord | null>;
  /** Test mode: closes every block of a stake. */
  closeBlocksOfStake(stakeCents: StakeCents): Promise<void>;
  /** Per block, the units sold since `since` (operations: the rate of sale; reads every play of the period). */
  unitsSoldSince(since: Date): Promise<{ blockId: string; count: number }[]>;
  /** Tests only: moves a block's cursor (real blocks always sell from 0 to the end). */
  forceBlockCursor(blockId: string, nextPosition: number): Promise<void>;

  /**
   * Runs `read` on one consistent snapshot of the data, for checks made while a server
   * sells. Only reads may happen inside, and nothing else on this store meanwhile.
   */
  readSnapshot<T>(read: () => Promise<T>): Promise<T>;
  ledgerFacts(): Promise<LedgerFacts>;
  /** Every play's block, position (null for fixtures) and stored unit, for the unit-by-unit check. */
  soldUnits(): AsyncIterable<SoldUnit>;

  // ---- The operator's wallet ---------------------------------------------------------
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
  walletFacts(): Promise<WalletFacts>;
}

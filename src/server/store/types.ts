import type { Cents, StakeCents, Unit } from '../../rules/index.ts';
import type { ErrorCode, Launched } from '../../contract/api.ts';

/** The store's records: what its parts (parts.ts) take and give. */

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

export type {
  BlockBook,
  DemoPurgeBook,
  LedgerBook,
  PlayBook,
  PlayerBook,
  SalesControlBook,
  Store,
  WalletBook,
} from './parts.ts';

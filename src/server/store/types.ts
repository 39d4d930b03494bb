import type { Cents, StakeCents, Unit } from '../../rules/index.ts';
import type { ErrorCode, Launched } from '../../contract/api.ts';

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

export interface BlockRecord {
  id: string;
  stakeCents: StakeCents;
  filePath: string;
  count: number;
  nextPosition: number;
  status: BlockStatus;
}

/** A sold unit as stored; block and position stay inside the server. */
export interface PlayRecord {
  playId: string;
  playerId: string;
  stakeCents: StakeCents;
  /** Null for a test fixture, which comes from no block. */
  blockId: string | null;
  position: number | null;
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

/** Reads a block's units; the store asks for them inside the play's transaction. */
export interface UnitSource {
  unitAt(block: Pick<BlockRecord, 'id' | 'filePath'>, position: number): Unit;
}

export interface BuyRequest {
  playerId: string;
  playId: string;
  stakeCents: StakeCents;
  /** Decided by the caller from the sales window; an existing playId is replayed even when closed. */
  salesOpen: boolean;
  /** Test mode only: sell this unit instead of the block's next one. */
  fixtureUnit?: Unit;
  now: Date;
}

export type BuyResult =
  | { ok: true; play: PlayRecord; balanceCents: Cents; replayed: boolean }
  | {
      ok: false;
      code: Extract<ErrorCode, 'SALES_CLOSED' | 'INSUFFICIENT_BALANCE' | 'SOLD_OUT' | 'PLAY_ID_REUSED' | 'NOT_FOUND'>;
    };

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
  /** Player balances next to the sum of their ledger entries. */
  balances: { playerId: string; balanceCents: Cents; entriesCents: Cents }[];
  /** Per block and lot, how many units were sold. */
  soldLots: { blockId: string; lotCents: Cents; count: number }[];
  /** Per block, the sold positions' count, min and max, next to its cursor. */
  blockCursors: { block: BlockRecord; sold: number; minPosition: number | null; maxPosition: number | null }[];
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

export interface Store {
  close(): Promise<void>;

  /** A secret kept with the data, created on first use: signs session tokens. */
  sessionKey(): Promise<Buffer>;

  /** A new demo player, funded from house:demo-funding through the ledger. */
  createDemoPlayer(balanceCents: Cents, now: Date): Promise<PlayerRecord>;
  /** The portal's player, created with a zero balance on first sight. */
  ensurePortalPlayer(playerId: string, now: Date): Promise<PlayerRecord>;
  getPlayer(playerId: string): Promise<PlayerRecord | null>;

  /** Puts a verified block on sale (queued behind the open one of its stake, or open). */
  addBlock(block: Omit<BlockRecord, 'nextPosition' | 'status'>, now: Date): Promise<BlockRecord>;
  listBlocks(): Promise<BlockRecord[]>;
  /** The stakes that still have a unit to sell. */
  stakesWithUnits(): Promise<Set<StakeCents>>;

  /** The one transaction of a « Jouer ». */
  buyPlay(request: BuyRequest): Promise<BuyResult>;
  getPlay(playerId: string, playId: string): Promise<PlayRecord | null>;
  listPlays(query: PlaysQuery): Promise<{ plays: PlayRecord[]; more: boolean }>;
  latestUnfinishedPlay(playerId: string): Promise<PlayRecord | null>;
  /** Marks wheels as launched (never un-launches); null when the play is not this player's. */
  recordProgress(playerId: string, playId: string, launched: Launched): Promise<PlayRecord | null>;
  finishPlay(playerId: string, playId: string): Promise<PlayRecord | null>;

  /** Test mode and operations: a ledger adjustment against house:adjustments. */
  setBalance(playerId: string, balanceCents: Cents, now: Date): Promise<PlayerRecord | null>;
  /** Test mode: closes every block of a stake. */
  closeBlocksOfStake(stakeCents: StakeCents): Promise<void>;
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
}

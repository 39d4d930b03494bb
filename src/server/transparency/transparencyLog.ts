import { toHex } from '../../proofs/index.ts';
import {
  consistencyProof,
  encodeEntry,
  entryBytes,
  inclusionPath,
  logLeafHash,
  logRoot,
  type LogPool,
  type SignedTreeHead,
  type SubtreeCache,
  type TicketLog,
} from '../../transparency/index.ts';
import { nodeSha256 } from '../../transparency/nodeSha256.ts';
import type { EntryKind, LogQueries, LogStorage, LogWrite, StoredEntry } from './logStorage.ts';
import type { LogSigningKey } from './signingKey.ts';

/** An entry and the first head whose tree holds it. */
export interface LoggedEntry {
  index: number;
  head: SignedTreeHead;
}

export interface CommittedBlock {
  id: string;
  pool: LogPool;
  stakeCents: number;
  count: number;
  root: string;
  seedHash: string;
}

export { LogKeyMismatchError } from './logStorage.ts';

/**
 * The transparency log (docs/fairness.md, "The log"): an append-only RFC 9162 tree of
 * entries — each block's commitment when it is put on sale, its seed once nothing of it is
 * left to sell — and signed heads. Every append signs a head in the same transaction, so a
 * committed entry is always in a signed head; `signHeadIfDue` adds one when the newest is
 * older than the period. Appends are idempotent per block and kind: an instance that finds
 * the entry already there gets its index and first head.
 *
 * The leaf hashes are kept in memory as they are read (entries never change); every tree
 * computed here is over a prefix of them.
 */
export class TransparencyLog {
  private readonly leaves: Uint8Array[] = [];
  /** Complete subtrees' hashes: fixed once their leaves are logged. */
  private readonly subtreeHashes = new Map<number, Uint8Array>();

  private constructor(
    private readonly storage: LogStorage,
    private readonly key: LogSigningKey,
    private readonly clock: () => Date,
    readonly headPeriodMs: number,
  ) {}

  /**
   * The log of `storage`, signed with `key`: refused if the log was signed with another
   * key (its heads would not verify). Signs the first head of an empty log.
   */
  static async open(
    storage: LogStorage,
    key: LogSigningKey,
    options: { headSeconds: number; clock?: () => Date },
  ): Promise<TransparencyLog> {
    const log = new TransparencyLog(storage, key, options.clock ?? (() => new Date()), options.headSeconds * 1000);
    await storage.append(async (q) => {
      const latest = await q.latestHead();
      const plan = { ...(await log.planHead(q, latest)), publicKey: key.publicKey };
      // A log with a head already keeps it: only the key is checked.
      return latest === null ? plan : { ...plan, head: undefined };
    });
    return log;
  }

  get publicKey(): string {
    return this.key.publicKey;
  }

  close(): Promise<void> {
    return this.storage.close();
  }

  /** A block's commitment, logged once (before its first sale). */
  logCommitment(block: CommittedBlock): Promise<LoggedEntry> {
    return this.appendOnce('commitment', block.id, (timestamp) =>
      encodeEntry({
        kind: 'commitment',
        blockId: block.id,
        pool: block.pool,
        stakeCents: block.stakeCents,
        count: block.count,
        root: block.root,
        seedHash: block.seedHash,
        timestamp,
      }),
    );
  }

  /** A block's seed, logged once, after its commitment (never while a unit of it may still be sold). */
  logSeed(blockId: string, seed: string): Promise<LoggedEntry> {
    return this.appendOnce('seed', blockId, (timestamp) => encodeEntry({ kind: 'seed', blockId, seed, timestamp }));
  }

  /** The block ids whose entry of this kind is logged. */
  blocksWith(kind: EntryKind): Promise<Set<string>> {
    return this.storage.read((q) => q.blocksWith(kind));
  }

  private appendOnce(kind: EntryKind, blockId: string, entryAt: (timestamp: number) => string): Promise<LoggedEntry> {
    return this.storage.append(async (q): Promise<LogWrite<LoggedEntry>> => {
      // Read in this order: the write checks that the size and the newest head have not moved,
      // so an entry that another append wrote after these reads cannot be missed here.
      const latest = await q.latestHead();
      const index = await q.size();
      const known = await q.entryOf(kind, blockId);
      if (known) {
        const head = await q.firstHeadOfSize(known.index + 1);
        if (!head) throw new Error(`log entry ${known.index} is in no signed head`);
        return { size: index, latestHeadTime: latest?.timestamp ?? null, result: { index: known.index, head } };
      }
      const leaves = await this.leavesUpTo(q, index);
      const timestamp = this.nextTimestamp(latest);
      const data = entryAt(timestamp);
      const leafHash = logLeafHash(nodeSha256, entryBytes(data));
      // The entry's head, signed in the same transaction: a logged entry is always in a signed head.
      const head = this.key.sign({
        treeSize: index + 1,
        timestamp,
        rootHash: toHex(logRoot(nodeSha256, [...leaves.slice(0, index), leafHash], index + 1, this.subtrees())),
      });
      return {
        size: index,
        latestHeadTime: latest?.timestamp ?? null,
        entry: { index, kind, blockId, data, leafHash, timestamp },
        head,
        result: { index, head },
      };
    });
  }

  /**
   * Signs a head of the log as it is when the newest one is at least a period old (any
   * instance may call it: one of them signs). Returns the newest head.
   */
  signHeadIfDue(): Promise<SignedTreeHead> {
    return this.storage.append(async (q): Promise<LogWrite<SignedTreeHead>> => {
      const latest = await q.latestHead();
      if (latest && this.clock().getTime() - latest.timestamp < this.headPeriodMs) {
        return { size: latest.treeSize, latestHeadTime: latest.timestamp, result: latest };
      }
      return this.planHead(q, latest);
    });
  }

  /** A new head over the log as `q` sees it. */
  private async planHead(q: LogQueries, latest: SignedTreeHead | null): Promise<LogWrite<SignedTreeHead>> {
    const size = await q.size();
    const leaves = await this.leavesUpTo(q, size);
    const head = this.key.sign({
      treeSize: size,
      timestamp: this.nextTimestamp(latest),
      rootHash: toHex(logRoot(nodeSha256, leaves, size, this.subtrees())),
    });
    return { size, latestHeadTime: latest?.timestamp ?? null, head, result: head };
  }

  /** The subtrees of the leaves read from the database (an entry being appended is not one of them). */
  private subtrees(): SubtreeCache {
    return { hashes: this.subtreeHashes, upTo: this.leaves.length };
  }

  /** Heads' times only grow, one millisecond at least, whichever instance signs (clocks differ a little). */
  private nextTimestamp(latest: SignedTreeHead | null): number {
    return Math.max(this.clock().getTime(), latest ? latest.timestamp + 1 : 0);
  }

  /** The leaf hashes of entries [0, size), read from `q` where not known yet. */
  private async leavesUpTo(q: LogQueries, size: number): Promise<readonly Uint8Array[]> {
    while (this.leaves.length < size) {
      const from = this.leaves.length;
      const more = await q.leafHashes(from, size);
      if (more.length !== size - from) throw new Error(`the log lacks entries ${from}–${size - 1}`);
      // Another read may have filled the same range meanwhile.
      if (this.leaves.length === from) this.leaves.push(...more);
    }
    return this.leaves;
  }

  // ---- reads (the routes, tickets)

  latestHead(): Promise<SignedTreeHead> {
    return this.storage.read(async (q) => (await q.latestHead())!);
  }

  entries(from: number, to: number): Promise<StoredEntry[]> {
    return this.storage.read((q) => q.entries(from, to));
  }

  /** The inclusion proof (hex) of entry `index` in the tree of `size` entries. */
  inclusion(index: number, size: number): Promise<string[]> {
    return this.storage.read(async (q) =>
      inclusionPath(nodeSha256, await this.leavesUpTo(q, size), index, size, this.subtrees()).map(toHex),
    );
  }

  /** The consistency proof (hex) between the trees of `first` and `second` entries. */
  consistency(first: number, second: number): Promise<string[]> {
    return this.storage.read(async (q) =>
      consistencyProof(nodeSha256, await this.leavesUpTo(q, second), first, second, this.subtrees()).map(toHex),
    );
  }

  /**
   * What a ticket sold at `soldAt` carries of the log: its block's commitment entry, the
   * newest head signed before the sale (it holds the entry: no unit is sold before that),
   * and the inclusion proof. Null when the block's commitment is in no head before the sale.
   */
  ticketLog(blockId: string, soldAt: Date): Promise<TicketLog | null> {
    return this.storage.read(async (q) => {
      const entry = await q.entryOf('commitment', blockId);
      const head = await q.latestHeadBefore(soldAt.getTime());
      if (!entry || !head || head.treeSize <= entry.index) return null;
      const leaves = await this.leavesUpTo(q, head.treeSize);
      return {
        index: entry.index,
        entry: entry.data,
        head,
        inclusion: inclusionPath(nodeSha256, leaves, entry.index, head.treeSize, this.subtrees()).map(toHex),
        publicKey: this.key.publicKey,
      };
    });
  }
}

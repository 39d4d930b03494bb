import { createBlockReads } from './blockBook.ts';
import { createDemoPurgeBook, type IdList } from './demoPurgeBook.ts';
import type { StoreDialect } from './dialect.ts';
import { createLedgerBook } from './ledgerBook.ts';
import type { BlockBook, PlayBook, Store, WalletBook } from './parts.ts';
import { createPlayerBook } from './playerBook.ts';
import { createPlayReads } from './playBook.ts';
import { createSalesControlBook } from './salesControlBook.ts';
import { createWalletBook } from './walletBooks.ts';

/**
 * What a database does its own way, beside its dialect: the play batch, putting a block on
 * sale, closing, the rollbacks' new request ids (cancelStaleBets); and any shared write it
 * does better (PostgreSQL gathers a play's wallet writes and cancels a bet with its rollback
 * in one statement).
 */
export type OwnParts = Pick<PlayBook, 'buyPlay' | 'observePlayBatches'> &
  Pick<BlockBook, 'addBlock'> &
  Pick<WalletBook, 'cancelStaleWalletBets'> &
  Partial<WalletBook> & { close(): Promise<void> };

/** One database's store: every part built on its dialect, its own parts last (they win). */
export function composeStore(dialect: StoreDialect, ids: IdList, own: OwnParts): Store {
  const blocks = createBlockReads(dialect);
  return {
    dialect,
    ...createPlayerBook(dialect),
    ...createDemoPurgeBook(dialect, ids),
    ...createPlayReads(dialect),
    ...blocks,
    ...createSalesControlBook(dialect),
    ...createLedgerBook(dialect, blocks),
    ...createWalletBook(dialect),
    ...own,
  };
}

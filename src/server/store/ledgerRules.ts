/**
 * The money rules of the ledger, written once: which accounts exist and which entries
 * each movement of money makes (transaction id, accounts, signs, kind). Every transaction
 * sums to zero. Pure: the batch planner and both stores build their entries here, and the
 * ledger audit reads the same account names.
 */

export const HOUSE_SALES = 'house:sales';
export const HOUSE_PRIZES = 'house:prizes';
export const HOUSE_DEMO_FUNDING = 'house:demo-funding';
export const HOUSE_ADJUSTMENTS = 'house:adjustments';
/** Every player's account starts with this; the ledger audit matches on it. */
export const PLAYER_ACCOUNT_PREFIX = 'player:';

/**
 * A portal player's money at the operator's wallet, mirrored: a wallet play's stake leaves
 * it and its lot comes back to it, so its entries sum to what the wallet's statement shows
 * for that player's rounds (−bets not rolled back + wins). It has no balance in the game.
 */
export const WALLET_ACCOUNT_PREFIX = 'wallet:';

export function playerAccount(playerId: string): string {
  return PLAYER_ACCOUNT_PREFIX + playerId;
}

export function walletAccount(playerId: string): string {
  return WALLET_ACCOUNT_PREFIX + playerId;
}

export type EntryKind = 'stake' | 'prize' | 'funding' | 'adjustment';

/** One ledger row as stored. */
export interface LedgerEntry<K extends EntryKind = EntryKind> {
  txn: string;
  account: string;
  amountCents: number;
  /** The play it belongs to; null for fundings and adjustments. */
  playId: K extends 'stake' | 'prize' ? string : null;
  kind: K;
  createdAt: string;
}

/**
 * Appends a sold play's entries to `out`: the stake moves from the player's account (in
 * the game, or at the wallet) to house:sales, and a winning unit's lot from house:prizes
 * to that account (a losing unit makes no prize transaction). Appends rather than returns:
 * it runs once per play of a batch.
 */
export function pushPlayEntries(
  out: LedgerEntry<'stake' | 'prize'>[],
  playId: string,
  account: string,
  stakeCents: number,
  winCents: number,
  createdAt: string,
): void {
  const stakeTxn = `stake:${playId}`;
  out.push(
    { txn: stakeTxn, account, amountCents: -stakeCents, playId, kind: 'stake', createdAt },
    { txn: stakeTxn, account: HOUSE_SALES, amountCents: stakeCents, playId, kind: 'stake', createdAt },
  );
  if (winCents > 0) {
    const prizeTxn = `prize:${playId}`;
    out.push(
      { txn: prizeTxn, account: HOUSE_PRIZES, amountCents: -winCents, playId, kind: 'prize', createdAt },
      { txn: prizeTxn, account, amountCents: winCents, playId, kind: 'prize', createdAt },
    );
  }
}

/** A new demo player's starting balance, from house:demo-funding; none for a zero balance. */
export function fundingEntries(playerId: string, balanceCents: number, createdAt: string): LedgerEntry<'funding'>[] {
  if (balanceCents <= 0) return [];
  const txn = `funding:${playerId}`;
  return [
    { txn, account: HOUSE_DEMO_FUNDING, amountCents: -balanceCents, playId: null, kind: 'funding', createdAt },
    { txn, account: playerAccount(playerId), amountCents: balanceCents, playId: null, kind: 'funding', createdAt },
  ];
}

/**
 * A balance set by hand (test mode, operations): the difference moves between
 * house:adjustments and the player, under a transaction id of its own (`adjustmentId`,
 * unique); none when the balance does not change.
 */
export function adjustmentEntries(
  playerId: string,
  fromCents: number,
  toCents: number,
  adjustmentId: string,
  createdAt: string,
): LedgerEntry<'adjustment'>[] {
  const delta = toCents - fromCents;
  if (delta === 0) return [];
  const txn = `adjustment:${adjustmentId}`;
  return [
    { txn, account: HOUSE_ADJUSTMENTS, amountCents: -delta, playId: null, kind: 'adjustment', createdAt },
    { txn, account: playerAccount(playerId), amountCents: delta, playId: null, kind: 'adjustment', createdAt },
  ];
}

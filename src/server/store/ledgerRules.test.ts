import { describe, expect, it } from 'vitest';
import { adjustmentEntries, fundingEntries, playerAccount, pushPlayEntries, type LedgerEntry } from './ledgerRules.ts';

const at = '2026-01-01T00:00:00.000Z';
const sumByTxn = (entries: readonly LedgerEntry[]) => {
  const sums = new Map<string, number>();
  for (const e of entries) sums.set(e.txn, (sums.get(e.txn) ?? 0) + e.amountCents);
  return Object.fromEntries(sums);
};

describe('ledger rules', () => {
  it('a play: the stake from the player to house:sales, the lot from house:prizes to the player', () => {
    const entries: LedgerEntry<'stake' | 'prize'>[] = [];
    pushPlayEntries(entries, 'p1', playerAccount('alice'), 200, 500, at);
    expect(entries.map((e) => [e.txn, e.account, e.amountCents, e.kind, e.playId])).toEqual([
      ['stake:p1', 'player:alice', -200, 'stake', 'p1'],
      ['stake:p1', 'house:sales', 200, 'stake', 'p1'],
      ['prize:p1', 'house:prizes', -500, 'prize', 'p1'],
      ['prize:p1', 'player:alice', 500, 'prize', 'p1'],
    ]);
    expect(sumByTxn(entries)).toEqual({ 'stake:p1': 0, 'prize:p1': 0 });
    // A losing unit makes no prize transaction.
    pushPlayEntries(entries, 'p2', playerAccount('alice'), 100, 0, at);
    expect(entries.slice(4).map((e) => e.txn)).toEqual(['stake:p2', 'stake:p2']);
  });

  it('a demo funding and an adjustment balance against their house accounts; none when nothing moves', () => {
    const funding = fundingEntries('demo-1', 1000, at);
    expect(funding.map((e) => [e.txn, e.account, e.amountCents, e.kind, e.playId])).toEqual([
      ['funding:demo-1', 'house:demo-funding', -1000, 'funding', null],
      ['funding:demo-1', 'player:demo-1', 1000, 'funding', null],
    ]);
    expect(fundingEntries('demo-2', 0, at)).toEqual([]);
    const down = adjustmentEntries('bob', 1000, 250, 'a1', at);
    expect(down.map((e) => [e.txn, e.account, e.amountCents, e.kind])).toEqual([
      ['adjustment:a1', 'house:adjustments', 750, 'adjustment'],
      ['adjustment:a1', 'player:bob', -750, 'adjustment'],
    ]);
    expect(sumByTxn([...funding, ...down])).toEqual({ 'funding:demo-1': 0, 'adjustment:a1': 0 });
    expect(adjustmentEntries('bob', 250, 250, 'a2', at)).toEqual([]);
  });
});

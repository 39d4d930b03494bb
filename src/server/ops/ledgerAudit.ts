import { blockLotTable, evaluate, type StakeCents } from '../../rules/index.ts';
import type { BlockLibrary } from '../blocks/blockLibrary.ts';
import { poolOfPlayer, type BlockPool, type LedgerBook } from '../store/types.ts';
import { encodeUnit } from '../store/unitCode.ts';

/** Plays sold from one pool's blocks, and their money. */
export interface PoolTotals {
  plays: number;
  stakesCents: number;
  prizesCents: number;
}

export interface LedgerAuditReport {
  ok: boolean;
  problems: string[];
  plays: number;
  blocks: number;
  players: number;
  /** Per pool: real money's totals, and demo play money's apart. */
  pools: Record<BlockPool, PoolTotals>;
  /** Plays sold before blocks had pools (all from real blocks); how many of them demo players'. */
  beforePools: { plays: number; demoPlays: number };
  /** Demo plays purged with their idle players (demoPurge.ts): counted per block, their units still sold. */
  purgedDemo: PoolTotals;
}

const MAX_PROBLEMS = 50;

/**
 * The money check: entries sum to zero (overall and per transaction); each play is one
 * debit of its stake and one credit of exactly its unit's lot; no unit sold twice and
 * no gap in a block's sale order; each block's sold lots fit in its table; balances
 * equal their entries; each sold unit is the block file's unit at its position.
 * Fixture plays (test mode) come from no block: their money is checked, not their block.
 * Plays paid at the operator's wallet move money on the player's mirror of the wallet
 * instead of a game balance; each must have its bet and exactly one win owed or paid.
 * Pools: no unit of a real block sold to a demo player, none of a demo block to a portal
 * player; the real-money totals leave demo play out. Demo plays purged with their idle
 * players are counted per block and lot (purged_plays): each block's cursor must equal its
 * plays kept plus purged, their positions together exactly 0 … cursor-1 (count and sum),
 * and the lots sold, purged ones included, must fit the block's table.
 */
export async function auditLedger(store: LedgerBook, library: BlockLibrary): Promise<LedgerAuditReport> {
  const problems: string[] = [];
  const problem = (line: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(line);
    else if (problems.length === MAX_PROBLEMS) problems.push('… more problems not listed');
  };
  const facts = await store.ledgerFacts();

  if (facts.totalCents !== 0) problem(`ledger entries sum to ${facts.totalCents} cents, not 0`);
  for (const t of facts.unbalancedTransactions) problem(`transaction ${t.txn} sums to ${t.sumCents} cents`);

  for (const b of facts.balances) {
    if (b.balanceCents !== b.entriesCents) {
      problem(`player ${b.playerId}: balance ${b.balanceCents} but entries sum to ${b.entriesCents}`);
    }
    if (b.balanceCents < 0) problem(`player ${b.playerId}: negative balance ${b.balanceCents}`);
  }

  for (const d of facts.duplicateUnits) problem(`block ${d.blockId} position ${d.position} sold ${d.count} times`);

  const stakeOf = new Map(facts.blockCursors.map((c) => [c.block.id, c.block.stakeCents]));
  const purgedDemo: PoolTotals = { plays: 0, stakesCents: 0, prizesCents: 0 };
  const purgedOf = new Map<string, { plays: number; positionSum: number }>();
  for (const p of facts.purgedPlays) {
    const block = facts.blockCursors.find((c) => c.block.id === p.blockId)?.block;
    if (block?.pool !== 'demo')
      problem(`block ${p.blockId}: ${p.plays} purged play(s) recorded, but it is no demo block`);
    const sum = purgedOf.get(p.blockId) ?? { plays: 0, positionSum: 0 };
    purgedOf.set(p.blockId, { plays: sum.plays + p.plays, positionSum: sum.positionSum + p.positionSum });
    purgedDemo.plays += p.plays;
    purgedDemo.stakesCents += p.plays * (stakeOf.get(p.blockId) ?? 0);
    purgedDemo.prizesCents += p.plays * p.lotCents;
  }

  for (const c of facts.blockCursors) {
    const { block } = c;
    const purged = purgedOf.get(block.id) ?? { plays: 0, positionSum: 0 };
    const sold = c.sold + purged.plays;
    if (purged.plays === 0) {
      // Sold positions must be exactly 0 … sold-1, and the cursor right after them.
      if (c.sold > 0 && (c.minPosition !== 0 || c.maxPosition !== c.sold - 1)) {
        problem(`block ${block.id}: ${c.sold} units sold but positions span ${c.minPosition}–${c.maxPosition}`);
      }
    } else {
      // Positions kept are distinct and within 0 … sold-1; with the purged ones' count and sum
      // they must make up 0 … sold-1 exactly: a play missing or moved shows in either.
      if (c.sold > 0 && (c.minPosition! < 0 || c.maxPosition! > sold - 1)) {
        problem(`block ${block.id}: ${sold} units sold but positions span ${c.minPosition}–${c.maxPosition}`);
      }
      const expected = (sold * (sold - 1)) / 2;
      if (c.positionSum + purged.positionSum !== expected) {
        problem(
          `block ${block.id}: positions of the ${c.sold} plays kept and ${purged.plays} purged sum to ` +
            `${c.positionSum + purged.positionSum}, not ${expected} (0 … ${sold - 1})`,
        );
      }
    }
    if (block.nextPosition !== sold) {
      problem(
        `block ${block.id}: cursor at ${block.nextPosition} but ${sold} units sold` +
          (purged.plays > 0 ? ` (${c.sold} plays kept, ${purged.plays} purged)` : ''),
      );
    }
  }

  for (const lot of facts.soldLots) {
    const stake = stakeOf.get(lot.blockId);
    if (stake === undefined) {
      problem(`plays from unknown block ${lot.blockId}`);
      continue;
    }
    const row = blockLotTable(stake as StakeCents).find((r) => r.lotCents === lot.lotCents);
    if (!row) problem(`block ${lot.blockId}: ${lot.count} unit(s) sold with lot ${lot.lotCents}, not in its table`);
    else if (lot.count > row.count) {
      problem(`block ${lot.blockId}: ${lot.count} units of lot ${lot.lotCents} sold, the table holds ${row.count}`);
    }
  }

  // Pools apart: each play's pool is its block's, and the pool of its player's kind. Plays
  // from before pools existed record none: counted apart (demo players' took real units then).
  const pools: Record<BlockPool, PoolTotals> = {
    real: { plays: 0, stakesCents: 0, prizesCents: 0 },
    demo: { plays: 0, stakesCents: 0, prizesCents: 0 },
  };
  const beforePools = { plays: 0, demoPlays: 0 };
  for (const p of facts.poolPlays) {
    if (p.playPool === null) {
      beforePools.plays += p.plays;
      if (p.playerKind === 'demo') beforePools.demoPlays += p.plays;
      continue;
    }
    if (p.playPool !== p.blockPool) {
      problem(`${p.plays} play(s) record the ${p.playPool} pool but their block is in the ${p.blockPool} pool`);
    }
    if (poolOfPlayer(p.playerKind) !== p.blockPool) {
      problem(`${p.plays} play(s) of ${p.playerKind} players sold from ${p.blockPool} blocks`);
    }
    const totals = pools[p.blockPool];
    totals.plays += p.plays;
    totals.stakesCents += p.stakesCents;
    totals.prizesCents += p.prizesCents;
  }

  let plays = 0;
  for (const [playId, e] of facts.playEntries) {
    plays++;
    if (e.stakeDebits !== 1) problem(`play ${playId}: ${e.stakeDebits} stake debits`);
    if (e.prizeCredits > 1) problem(`play ${playId}: ${e.prizeCredits} prize credits`);
  }

  // Portal plays paid at the operator's wallet: each sold unit owes (or was paid) exactly
  // its lot, each sale has its bet, each reversed bet its rollback.
  const wallet = await store.walletFacts();
  for (const p of wallet.playsWithoutWin) {
    problem(
      p.owedCents === null
        ? `play ${p.playId}: no win owed or paid at the wallet for its lot of ${p.winCents}`
        : `play ${p.playId}: win of ${p.owedCents} owed at the wallet for a lot of ${p.winCents}`,
    );
  }
  for (const id of wallet.soldBetsWithoutPlay)
    problem(`wallet bet ${id}: sold, but no such play of its player and stake`);
  for (const id of wallet.cancelledBetsWithoutRollback) problem(`wallet bet ${id}: cancelled without a rollback owed`);
  for (const id of wallet.walletPlaysWithoutBet) problem(`play ${id}: paid at the wallet without a sold bet`);

  const blocks = new Map(facts.blockCursors.map((c) => [c.block.id, c.block]));
  // Unit by unit: the stored unit is the block's, its lot is what the play credited.
  for await (const sold of store.soldUnits()) {
    const entries = facts.playEntries.get(sold.playId);
    const lot = evaluate(sold.unit).winCents;
    if (lot !== sold.winCents) problem(`play ${sold.playId}: unit shows ${lot} but the play records ${sold.winCents}`);
    if (entries && entries.prizeCents !== lot) {
      problem(`play ${sold.playId}: credited ${entries.prizeCents} for a lot of ${lot}`);
    }
    if (entries && entries.stakeCents !== sold.unit.stakeCents) {
      problem(`play ${sold.playId}: debited ${entries.stakeCents} for a stake of ${sold.unit.stakeCents}`);
    }
    if (sold.blockId === null || sold.position === null) continue;
    const block = blocks.get(sold.blockId);
    if (!block) continue;
    let fileUnit: string;
    try {
      fileUnit = encodeUnit(library.get(block).unitAt(sold.position));
    } catch (error) {
      problem(`block ${block.id}: cannot read its file to check play ${sold.playId}: ${(error as Error).message}`);
      continue;
    }
    if (fileUnit !== encodeUnit(sold.unit)) problem(`play ${sold.playId}: not the block file's unit at its position`);
  }

  return {
    ok: problems.length === 0,
    problems,
    plays,
    blocks: facts.blockCursors.length,
    players: facts.balances.length,
    pools,
    beforePools,
    purgedDemo,
  };
}

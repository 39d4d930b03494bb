import { describe, expect, it } from 'vitest';
import { unitForPair } from '../../emission/index.ts';
import type { PairKey, StakeCents, Unit } from '../../rules/index.ts';
import { seededRandom } from '../seededRandom.ts';
import { encodeUnit } from './unitCode.ts';
import { blockWritesInOrder, emptyReads, planBatch, type BatchReads } from './batchPlan.ts';
import type { BlockRecord, BuyRequest, PlayRecord, UnitSource } from './types.ts';

/** Blocks of a few units each, position p of block b being pairs[b][p]. */
function source(pairs: Record<string, PairKey[]>): UnitSource {
  return {
    unitAt: (block, position) => {
      const pair = pairs[block.id]![position]!;
      return unitForPair(pair, block.id.startsWith('b100') ? 100 : 200, seededRandom(`${block.id}:${position}`));
    },
  };
}

function block(id: string, stakeCents: StakeCents, count: number, status: BlockRecord['status'], nextPosition = 0) {
  return { id, stakeCents, filePath: '', count, nextPosition, status } satisfies BlockRecord;
}

const now = new Date('2026-11-30T10:00:00Z');
const request = (playId: string, stakeCents: StakeCents = 100, more: Partial<BuyRequest> = {}): BuyRequest => ({
  playerId: 'p1',
  playId,
  stakeCents,
  salesOpen: true,
  now,
  ...more,
});

function reads(balance: number, blocks: BlockRecord[]): BatchReads {
  const byStake = new Map<StakeCents, BlockRecord[]>();
  for (const b of blocks) byStake.set(b.stakeCents, [...(byStake.get(b.stakeCents) ?? []), b]);
  return { ...emptyReads(), balances: new Map([['p1', balance]]), blocks: byStake };
}

describe('planBatch', () => {
  const units = source({ b100a: ['lose', 'x2', 'lose'], b100b: ['lose', 'lose'] });

  it('decides in order: each play sees the balance and cursor the earlier ones left', () => {
    const { outcomes, writes } = planBatch(
      [request('a'), request('b'), request('c')],
      reads(300, [block('b100a', 100, 3, 'open')]),
      units,
      encodeUnit,
    );
    const plays = outcomes.map((o) => ('result' in o && o.result.ok ? o.result.play : null));
    expect(plays.map((p) => p?.position)).toEqual([0, 1, 2]);
    expect(plays.map((p) => p?.balanceBeforeCents)).toEqual([300, 200, 100 + plays[1]!.winCents]);
    expect(writes.balances.get('p1')).toBe(plays[2]!.balanceAfterCents);
    expect(writes.blocks.get('b100a')).toMatchObject({ nextPosition: 3, status: 'closed' });
    // Two entries per play, two more for the one that wins; every transaction sums to zero.
    const winners = plays.filter((p) => p!.winCents > 0).length;
    expect(writes.entries).toHaveLength(6 + 2 * winners);
    const sums = new Map<string, number>();
    for (const e of writes.entries) sums.set(e.txn, (sums.get(e.txn) ?? 0) + e.amountCents);
    expect([...sums.values()].every((s) => s === 0)).toBe(true);
  });

  it('crosses into the queued block on the last unit, and the opening block is written last', () => {
    const { outcomes, writes } = planBatch(
      [request('a'), request('b')],
      reads(1_000, [block('b100a', 100, 3, 'open', 2), block('b100b', 100, 2, 'queued')]),
      units,
      encodeUnit,
    );
    const positions = outcomes.map((o) =>
      'result' in o && o.result.ok ? [o.result.play.blockId, o.result.play.position] : null,
    );
    expect(positions).toEqual([
      ['b100a', 2],
      ['b100b', 0],
    ]);
    expect(blockWritesInOrder(writes.blocks).map(([id, b]) => [id, b.status, b.nextPosition])).toEqual([
      ['b100a', 'closed', 3],
      ['b100b', 'open', 1],
    ]);
  });

  it('refuses without taking a unit: low balance, sales closed, unknown player, sold out', () => {
    const { outcomes, writes } = planBatch(
      [
        request('a', 100, { salesOpen: false }),
        request('b', 100, { playerId: 'nobody' }),
        request('c', 200),
        request('d', 100),
        request('e', 200),
        request('f', 100),
      ],
      reads(200, [block('b100a', 100, 3, 'open', 2)]),
      units,
      encodeUnit,
    );
    const codes = outcomes.map((o) => ('result' in o ? (o.result.ok ? 'ok' : o.result.code) : 'error'));
    // No block of 2 € is on sale; unit 2 of b100a loses, leaving 1 €; then b100a is used up.
    expect(codes).toEqual(['SALES_CLOSED', 'NOT_FOUND', 'SOLD_OUT', 'ok', 'INSUFFICIENT_BALANCE', 'SOLD_OUT']);
    expect(writes.plays).toHaveLength(1);
  });

  it('replays a known playId without a debit, and refuses it with another stake', () => {
    const first = planBatch([request('a')], reads(500, [block('b100a', 100, 3, 'open')]), units, encodeUnit);
    const play = (first.outcomes[0] as { result: { ok: true; play: PlayRecord } }).result.play;
    const known = {
      ...reads(play.balanceAfterCents, [block('b100a', 100, 3, 'open', 1)]),
      existing: new Map([['a', play]]),
    };
    const { outcomes, writes } = planBatch([request('a'), request('a', 200)], known, units, encodeUnit);
    expect(outcomes[0]).toEqual({ result: { ok: true, play, balanceCents: play.balanceAfterCents, replayed: true } });
    expect(outcomes[1]).toEqual({ result: { ok: false, code: 'PLAY_ID_REUSED' } });
    expect(writes.plays).toHaveLength(0);
    expect(writes.entries).toHaveLength(0);
  });

  it('a play that throws fails alone and takes no unit', () => {
    const wrong: Unit = unitForPair('lose', 200, seededRandom('wrong'));
    const { outcomes, writes } = planBatch(
      [request('a', 100, { fixtureUnit: wrong }), request('b')],
      reads(500, [block('b100a', 100, 3, 'open')]),
      units,
      encodeUnit,
    );
    expect('error' in outcomes[0]!).toBe(true);
    expect(outcomes[1]).toMatchObject({ result: { ok: true, play: { position: 0 } } });
    expect(writes.plays.map((w) => w.play.playId)).toEqual(['b']);
  });
});

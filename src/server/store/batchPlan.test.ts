import { describe, expect, it } from 'vitest';
import { unitForPair } from '../../emission/index.ts';
import type { PairKey, StakeCents, Unit } from '../../rules/index.ts';
import { seededRandom } from '../seededRandom.ts';
import { encodeUnit } from './unitCode.ts';
import { blockWritesInOrder, emptyReads, planBatch, type BatchReads } from './batchPlan.ts';
import { queueKey, type QueueKey } from './rows.ts';
import type { BlockPool, BlockRecord, BuyRequest, PlayerKind, PlayRecord, UnitSource } from './types.ts';

/** Blocks of a few units each, position p of block b being pairs[b][p]. */
function source(pairs: Record<string, PairKey[]>, unpublished: readonly string[] = []): UnitSource {
  return {
    isPublished: (block) => !unpublished.includes(block.id),
    unitAt: (block, position) => {
      const pair = pairs[block.id]![position]!;
      return unitForPair(pair, block.id.startsWith('b100') ? 100 : 200, seededRandom(`${block.id}:${position}`));
    },
  };
}

function block(
  id: string,
  stakeCents: StakeCents,
  count: number,
  status: BlockRecord['status'],
  nextPosition = 0,
  pool: BlockPool = 'demo',
) {
  return { id, stakeCents, pool, filePath: '', count, nextPosition, status } satisfies BlockRecord;
}

const now = new Date('2026-11-30T10:00:00Z');
const request = (playId: string, stakeCents: StakeCents = 100, more: Partial<BuyRequest> = {}): BuyRequest => ({
  playerId: 'p1',
  playId,
  stakeCents,
  pool: 'demo',
  salesOpen: true,
  now,
  ...more,
});

function reads(balance: number, blocks: BlockRecord[], kind: PlayerKind = 'demo'): BatchReads {
  const byQueue = new Map<QueueKey, BlockRecord[]>();
  for (const b of blocks) {
    const key = queueKey(b.stakeCents, b.pool);
    byQueue.set(key, [...(byQueue.get(key) ?? []), b]);
  }
  return { ...emptyReads(), balances: new Map([['p1', balance]]), kinds: new Map([['p1', kind]]), blocks: byQueue };
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

  it('sells each pool only from its own blocks, whatever the other pool holds', () => {
    const blocks = [block('b100a', 100, 3, 'open', 0, 'demo'), block('b100b', 100, 2, 'open', 0, 'real')];
    const demo = planBatch([request('a'), request('b')], reads(1_000, blocks, 'demo'), units, encodeUnit);
    const real = planBatch(
      [request('c', 100, { pool: 'real' }), request('d', 100, { pool: 'real' })],
      reads(1_000, blocks, 'portal'),
      units,
      encodeUnit,
    );
    const sold = (outcomes: typeof demo.outcomes) =>
      outcomes.map((o) => ('result' in o && o.result.ok ? [o.result.play.blockId, o.result.play.pool] : null));
    expect(sold(demo.outcomes)).toEqual([
      ['b100a', 'demo'],
      ['b100a', 'demo'],
    ]);
    expect(sold(real.outcomes)).toEqual([
      ['b100b', 'real'],
      ['b100b', 'real'],
    ]);
    // The demo pool's last unit gone, it is sold out: a real block is never its next one.
    const emptied = planBatch(
      [request('e')],
      reads(1_000, [block('b100a', 100, 3, 'open', 3, 'demo'), block('b100b', 100, 2, 'open', 0, 'real')]),
      units,
      encodeUnit,
    );
    expect(emptied.outcomes[0]).toEqual({ result: { ok: false, code: 'SOLD_OUT' } });
    expect(emptied.writes.plays).toHaveLength(0);
  });

  it('never sells a player a unit of the other pool, whatever the request asks', () => {
    const blocks = [block('b100a', 100, 3, 'open', 0, 'demo'), block('b100b', 100, 2, 'open', 0, 'real')];
    const demoAsksReal = planBatch(
      [request('a', 100, { pool: 'real' })],
      reads(1_000, blocks, 'demo'),
      units,
      encodeUnit,
    );
    const portalAsksDemo = planBatch([request('b')], reads(1_000, blocks, 'portal'), units, encodeUnit);
    for (const { outcomes, writes } of [demoAsksReal, portalAsksDemo]) {
      expect('error' in outcomes[0]!).toBe(true);
      expect(writes.plays).toHaveLength(0);
      expect(writes.blocks.size).toBe(0);
    }
  });

  it('takes no unit of a block whose root is not published: ROOT_PENDING names it', () => {
    const pending = source({ b100a: ['lose', 'x2', 'lose'], b100b: ['lose', 'lose'] }, ['b100b']);
    const { outcomes, writes } = planBatch(
      [request('a'), request('b')],
      reads(1_000, [block('b100a', 100, 3, 'open', 2), block('b100b', 100, 2, 'queued')]),
      pending,
      encodeUnit,
    );
    expect(outcomes[0]).toMatchObject({ result: { ok: true, play: { blockId: 'b100a', position: 2 } } });
    expect(outcomes[1]).toMatchObject({ result: { ok: false, code: 'ROOT_PENDING', block: { id: 'b100b' } } });
    expect(writes.plays).toHaveLength(1);
    expect(writes.blocks.get('b100b')).toMatchObject({ nextPosition: 0 });
  });
});

import type { StakeCents } from '../../rules/index.ts';
import type { StoreDialect } from './dialect.ts';
import { SOLD_LOTS_SQL } from './ledgerBook.ts';
import type { BlockBook } from './parts.ts';
import { BLOCK_COLUMNS, toBlock, type BlockRow } from './rows.ts';
import type { BlockPool, BlockRecord, SoldLot } from './types.ts';

/** The blocks on sale as operations see them; putting one on sale (`addBlock`) is the database's own. */
export type BlockReads = Omit<BlockBook, 'addBlock'>;

export function createBlockReads(db: StoreDialect): BlockReads {
  const listBlocks = async (): Promise<BlockRecord[]> => {
    const rows = await db.all<BlockRow>(`SELECT ${BLOCK_COLUMNS} FROM blocks ORDER BY seq`);
    return db.afterDurable(rows.map(toBlock));
  };
  return {
    listBlocks,

    async stakesWithUnits(pool: BlockPool): Promise<Set<StakeCents>> {
      const rows = await db.all<{ stake_cents: number }>(
        `SELECT DISTINCT stake_cents FROM blocks WHERE pool = ? AND status IN ('open', 'queued') AND next_position < count`,
        [pool],
      );
      return db.afterDurable(new Set(rows.map((r) => r.stake_cents as StakeCents)));
    },

    /**
     * Ends a block's sale (`npm run ops -- blocks close`): its remaining units are never
     * sold; the stake's next queued block opens at its next sale. Null: no such block.
     */
    async closeBlock(blockId: string): Promise<BlockRecord | null> {
      await db.write(`UPDATE blocks SET status = 'closed' WHERE id = ? AND status <> 'closed'`, [blockId]);
      return (await listBlocks()).find((block) => block.id === blockId) ?? null;
    },

    async unitsSoldSince(since: Date): Promise<{ blockId: string; count: number }[]> {
      const rows = await db.all<{ block_id: string; n: number }>(
        'SELECT block_id, COUNT(*) AS n FROM plays WHERE block_id IS NOT NULL AND created_at >= ? GROUP BY block_id',
        [since.toISOString()],
      );
      return db.afterDurable(rows.map((r) => ({ blockId: r.block_id, count: Number(r.n) })));
    },

    async soldLots(): Promise<SoldLot[]> {
      const rows = await db.all<{ block_id: string; win_cents: number; n: number }>(SOLD_LOTS_SQL);
      return db.afterDurable(rows.map((r) => ({ blockId: r.block_id, lotCents: r.win_cents, count: Number(r.n) })));
    },
  };
}

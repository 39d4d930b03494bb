import type { BlockPool, BlockRecord } from './store/types.ts';

export type { BlockPool };

/**
 * A block's pool: the record's own `pool` (schema version 6). The one place the metrics and
 * `ops supply` read it.
 */
export function blockPool(block: Pick<BlockRecord, 'pool'>): BlockPool {
  return block.pool;
}

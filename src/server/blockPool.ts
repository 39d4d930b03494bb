import type { BlockRecord } from './store/types.ts';

/** Which pool a block sells to: the real-money players or the demo ones. */
export type BlockPool = 'real' | 'demo';

/**
 * A block's pool: the record's own `pool` once block records carry one, else `real` (every
 * block loaded before pools existed sells real money). The one place that reads it, so that
 * the metrics and `ops supply` follow the record when it does.
 */
export function blockPool(block: BlockRecord): BlockPool {
  const { pool } = block as BlockRecord & { pool?: unknown };
  return pool === 'demo' ? 'demo' : 'real';
}

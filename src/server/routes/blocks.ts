import { BlocksResponseSchema, NoQuerySchema, type BlockSaleStatus, type BlocksResponse } from '../../contract/api.ts';
import type { ApiServer } from '../http/apiServer.ts';
import type { AppContext } from '../http/context.ts';
import { withErrors } from '../http/schemas.ts';
import type { BlockRecord } from '../store/types.ts';

function saleStatus(block: BlockRecord): BlockSaleStatus {
  // The store closes a block when its last unit is sold: a closed block may be sold out.
  if (block.nextPosition >= block.count) return 'sold-out';
  return block.status;
}

/**
 * GET /api/blocks, for anyone (no session): each block's commitment, published before its
 * first sale, and its seed once nothing of it is left to sell — never before, or the
 * seed would tell every unit still on sale.
 */
export function registerBlockRoutes(app: ApiServer, ctx: AppContext): void {
  app.get(
    '/api/blocks',
    { schema: { querystring: NoQuerySchema, response: withErrors(BlocksResponseSchema, 400, 429) } },
    async (): Promise<BlocksResponse> => {
      const blocks = await ctx.store.listBlocks();
      // Computed off this thread when not known yet (a block loaded since the start).
      const summaries = await Promise.all(blocks.map((block) => ctx.library.summary(block)));
      return {
        blocks: blocks.map((block, i) => {
          const status = saleStatus(block);
          const { root, seedHash, seedHex } = summaries[i]!;
          return {
            id: block.id,
            stakeCents: block.stakeCents,
            pool: block.pool,
            count: block.count,
            sold: block.nextPosition,
            status,
            root,
            seedHash,
            seed: status === 'sold-out' || status === 'closed' ? seedHex : null,
          };
        }),
      };
    },
  );
}

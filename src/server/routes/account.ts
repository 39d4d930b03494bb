import { AccountResponseSchema, NoQuerySchema, type AccountResponse } from '../../contract/api.ts';
import { STAKES_CENTS } from '../../rules/index.ts';
import type { ApiServer } from '../http/apiServer.ts';
import { requirePlayer } from '../http/auth.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { withErrors } from '../http/schemas.ts';
import { playView } from '../http/playView.ts';

export function registerAccountRoutes(app: ApiServer, ctx: AppContext): void {
  app.get(
    '/api/account',
    {
      schema: {
        querystring: NoQuerySchema,
        response: withErrors(AccountResponseSchema, 401, 403, 429, 503),
      },
    },
    async (request): Promise<AccountResponse> => {
      const playerId = requirePlayer(request);
      const player = await ctx.store.getPlayer(playerId);
      if (!player) throw new ApiError('NO_SESSION', 'this session names no player');
      const purse = ctx.sale.purseOf(playerId);
      const balance = await purse.balance(player);
      if (!balance.ok) throw new ApiError(balance.refusal.code, balance.refusal.message);
      const { balanceCents } = balance;
      const sales = ctx.sales.window(ctx.clock());
      // On sale to this player: a unit left in the pool that sells to them.
      const withUnits = await ctx.store.stakesWithUnits(purse.pool);
      const unfinished = await ctx.store.latestUnfinishedPlay(playerId);
      return {
        playerId,
        balanceCents,
        // On sale: the window is open and the stake has a unit left.
        stakes: STAKES_CENTS.map((stakeCents) => ({ stakeCents, onSale: sales.open && withUnits.has(stakeCents) })),
        sales,
        unfinishedPlay: unfinished ? playView(unfinished) : null,
      };
    },
  );
}

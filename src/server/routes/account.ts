import {
  AccountResponseSchema,
  DemoReloadRequestSchema,
  DemoReloadResponseSchema,
  NoQuerySchema,
  type AccountResponse,
  type DemoReloadResponse,
} from '../../contract/api.ts';
import { STAKES_CENTS } from '../../rules/index.ts';
import type { ApiServer } from '../http/apiServer.ts';
import { requirePlayer } from '../http/auth.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { withErrors } from '../http/schemas.ts';
import { playView } from '../http/playView.ts';

const SMALLEST_STAKE_CENTS = Math.min(...STAKES_CENTS);

const demoOnly = () => new ApiError('DEMO_ONLY', 'only a demo player’s play money can be reloaded');

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
        demo: purse.kind === 'demo-ledger',
        unfinishedPlay: unfinished ? playView(unfinished) : null,
      };
    },
  );

  // « Recharger la démo »: play money back to the demo starting balance once it pays no stake.
  app.post(
    '/api/account/demo-reload',
    {
      schema: {
        body: DemoReloadRequestSchema,
        response: withErrors(DemoReloadResponseSchema, 400, 401, 403, 409, 429, 503),
      },
    },
    async (request): Promise<DemoReloadResponse> => {
      const playerId = requirePlayer(request);
      // Real money, at the wallet or in the game's own ledger, is never topped up (the store checks it too).
      if (ctx.sale.purseOf(playerId).kind !== 'demo-ledger') throw demoOnly();
      // Low: below the smallest stake the demo pool still sells (as the client offers it), else below 1 €.
      const onSale = await ctx.store.stakesWithUnits('demo');
      const belowCents = onSale.size > 0 ? Math.min(...onSale) : SMALLEST_STAKE_CENTS;
      const result = await ctx.store.reloadDemo({
        playerId,
        reloadId: request.body.reloadId.toLowerCase(),
        toCents: ctx.config.demoBalanceCents,
        belowCents,
        now: ctx.clock(),
      });
      if (result.ok) return { balanceCents: result.balanceCents };
      if (result.code === 'NOT_FOUND') throw new ApiError('NO_SESSION', 'this session names no player');
      if (result.code === 'DEMO_ONLY') throw demoOnly();
      throw new ApiError(
        'BALANCE_NOT_LOW',
        `the demo balance is reloaded only below the smallest stake on sale (${belowCents} cents)`,
      );
    },
  );
}

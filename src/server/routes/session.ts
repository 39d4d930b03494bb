import type { FastifyInstance } from 'fastify';
import {
  SessionRequestSchema,
  SessionResponseSchema,
  type SessionRequest,
  type SessionResponse,
} from '../../contract/api.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { withErrors } from '../http/schemas.ts';
import { portalPlayerId } from '../portalPlayer.ts';
import { checkLaunchToken, signSession } from '../tokens.ts';

export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: SessionRequest }>(
    '/api/session',
    { schema: { body: SessionRequestSchema, response: withErrors(SessionResponseSchema, 400, 401, 403, 429, 503) } },
    async (request): Promise<SessionResponse> => {
      const now = ctx.clock();
      const nowSeconds = Math.floor(now.getTime() / 1000);
      const { launchToken } = request.body;
      let player;
      let balanceCents: number;
      if (launchToken === undefined) {
        if (!ctx.config.demoMode) {
          throw new ApiError('NO_SESSION', 'demo play is off: open the game from the portal');
        }
        player = await ctx.store.createDemoPlayer(ctx.config.demoBalanceCents, now);
        balanceCents = player.balanceCents;
      } else {
        if (ctx.config.portalSecret === null) {
          throw new ApiError('NO_SESSION', 'portal sessions are not configured on this server');
        }
        const check = checkLaunchToken(launchToken, ctx.config.portalSecret, nowSeconds);
        if (!check.ok) throw new ApiError('NO_SESSION', check.reason);
        player = await ctx.store.ensurePortalPlayer(portalPlayerId(check.playerId), now);
        balanceCents = player.balanceCents;
        if (ctx.wallet) {
          // The player's money is at the operator: its wallet must know the player, and says the balance.
          const balance = await ctx.wallet.balance(player.id, check.playerId);
          if (!balance.ok) throw new ApiError(balance.refusal.code, balance.refusal.message);
          balanceCents = balance.balanceCents;
        }
      }
      const token = signSession(
        { playerId: player.id, exp: nowSeconds + ctx.config.sessionTtlSeconds },
        ctx.sessionKey,
      );
      return { token, playerId: player.id, balanceCents };
    },
  );
}

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
import { checkLaunchToken, signSession } from '../tokens.ts';

/** Portal players live under their own prefix, so no portal id can name a demo player. */
export const PORTAL_PLAYER_PREFIX = 'portal-';

export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: SessionRequest }>(
    '/api/session',
    { schema: { body: SessionRequestSchema, response: withErrors(SessionResponseSchema, 400, 401, 429) } },
    async (request): Promise<SessionResponse> => {
      const now = ctx.clock();
      const nowSeconds = Math.floor(now.getTime() / 1000);
      const { launchToken } = request.body;
      let player;
      if (launchToken === undefined) {
        if (!ctx.config.demoMode) {
          throw new ApiError('NO_SESSION', 'demo play is off: open the game from the portal');
        }
        player = await ctx.store.createDemoPlayer(ctx.config.demoBalanceCents, now);
      } else {
        if (ctx.config.portalSecret === null) {
          throw new ApiError('NO_SESSION', 'portal sessions are not configured on this server');
        }
        const check = checkLaunchToken(launchToken, ctx.config.portalSecret, nowSeconds);
        if (!check.ok) throw new ApiError('NO_SESSION', check.reason);
        player = await ctx.store.ensurePortalPlayer(`${PORTAL_PLAYER_PREFIX}${check.playerId}`, now);
      }
      const token = signSession(
        { playerId: player.id, exp: nowSeconds + ctx.config.sessionTtlSeconds },
        ctx.sessionKey,
      );
      return { token, playerId: player.id, balanceCents: player.balanceCents };
    },
  );
}

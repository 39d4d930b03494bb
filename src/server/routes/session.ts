import {
  LogoutResponseSchema,
  SessionRequestSchema,
  SessionResponseSchema,
  type LogoutResponse,
  type SessionResponse,
} from '../../contract/api.ts';
import type { ApiServer } from '../http/apiServer.ts';
import { requirePlayer } from '../http/auth.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { MinuteBudget } from '../http/minuteBudget.ts';
import { withErrors } from '../http/schemas.ts';
import { portalPlayerId } from '../portalPlayer.ts';
import { checkLaunchToken, signSession } from '../tokens.ts';

const rateLimited = (ttlMs: number, what: string) =>
  new ApiError('RATE_LIMITED', `too many new sessions ${what}; retry in ${Math.ceil(ttlMs / 1000)} s`);

export function registerSessionRoutes(app: ApiServer, ctx: AppContext): void {
  // Opening a session is limited per address (SESSION_CREATE_PER_MINUTE) and in all: each
  // session brings its own request budget, so unlimited sessions would undo the rate limit.
  const perAddress = app.rateLimit({
    max: ctx.config.sessionCreatePerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `session-create:${request.ip}`,
    errorResponseBuilder: (_request, limit) => rateLimited(limit.ttl, 'from this address'),
  });
  const inAll = new MinuteBudget(ctx.config.sessionCreateTotalPerMinute);
  const takeFromAll = async () => {
    const waitMs = inAll.take(ctx.clock().getTime());
    if (waitMs !== null) throw rateLimited(waitMs, 'on this server');
  };
  app.post(
    '/api/session',
    {
      schema: { body: SessionRequestSchema, response: withErrors(SessionResponseSchema, 400, 401, 403, 429, 503) },
      // These two limits instead of the per-request one (a new session has no player to count by yet).
      config: { rateLimit: false },
      onRequest: [perAddress, takeFromAll],
    },
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
        const check = checkLaunchToken(launchToken, ctx.config.portalSecret, nowSeconds, {
          gameId: ctx.config.gameId,
          maxSeconds: ctx.config.launchTokenMaxSeconds,
        });
        if (!check.ok) throw new ApiError('NO_SESSION', check.reason);
        player = await ctx.store.ensurePortalPlayer(portalPlayerId(check.playerId), now);
        balanceCents = player.balanceCents;
        if (ctx.wallet) {
          // The player's money is at the operator: its wallet must know the player, and says the balance.
          const balance = await ctx.wallet.balance(player.id, check.playerId);
          if (!balance.ok) throw new ApiError(balance.refusal.code, balance.refusal.message);
          balanceCents = balance.balanceCents;
        }
        // Used once, on every instance: a token seen in a log, a history or a Referer opens
        // nothing. Taken last, so that a launch refused above (wallet down) may be retried.
        if (!(await ctx.sessions.useLaunchToken(check.jti, check.exp))) {
          throw new ApiError('NO_SESSION', 'this launch token was already used: the portal must make a new one');
        }
      }
      const claims = await ctx.sessions.open(player.id, ctx.config.sessionTtlSeconds);
      return { token: signSession(claims, ctx.sessionKeys), playerId: player.id, balanceCents };
    },
  );

  app.post(
    '/api/session/logout',
    { schema: { response: withErrors(LogoutResponseSchema, 401, 429, 503) } },
    async (request): Promise<LogoutResponse> => {
      requirePlayer(request);
      await ctx.sessions.revoke(request.session!);
      return { loggedOut: true };
    },
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkSession } from '../tokens.ts';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session's player, set from a valid Bearer token before anything else runs. */
    playerId: string | null;
  }
}

/**
 * Reads the session from the Bearer token on every request, before anything else runs
 * (rate limiting counts per session). A missing or bad token leaves playerId null:
 * each route that needs a player says so with requirePlayer.
 */
export function registerSessionReader(app: FastifyInstance, context: AppContext): void {
  app.decorateRequest('playerId', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined || !header.startsWith('Bearer ')) return;
    const claims = checkSession(
      header.slice(7).trim(),
      context.sessionKey,
      Math.floor(context.clock().getTime() / 1000),
    );
    if (claims) request.playerId = claims.playerId;
  });
}

export function requirePlayer(request: FastifyRequest): string {
  if (request.playerId === null) {
    throw new ApiError('NO_SESSION', 'a valid session is required: send Authorization: Bearer <token>');
  }
  return request.playerId;
}

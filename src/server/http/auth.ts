import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionRefusal } from '../sessions/sessionRegistry.ts';
import { checkSession, type SessionClaims } from '../tokens.ts';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session's player, set from a valid Bearer token before anything else runs. */
    playerId: string | null;
    /** The session itself (to end it: logout). */
    session: SessionClaims | null;
    /** Why a well-signed token was refused (ended, idle); null otherwise. */
    sessionRefusal: SessionRefusal | null;
  }
}

const REFUSALS: Record<SessionRefusal, string> = {
  revoked: 'this session has ended (logged out, or its demo player removed after long disuse): open a new one',
  idle: 'this session has ended after too long without use: open a new one',
};

/**
 * Reads the session from the Bearer token on every request, before anything else runs
 * (rate limiting counts per session). A missing or bad token leaves playerId null:
 * each route that needs a player says so with requirePlayer. Logouts and idleness are
 * checked from memory (sessions/sessionRegistry.ts): no database round trip per play.
 */
export function registerSessionReader(app: FastifyInstance, context: AppContext): void {
  app.decorateRequest('playerId', null);
  app.decorateRequest('session', null);
  app.decorateRequest('sessionRefusal', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined || !header.startsWith('Bearer ')) return;
    const claims = checkSession(
      header.slice(7).trim(),
      context.sessionKeys,
      Math.floor(context.clock().getTime() / 1000),
    );
    if (!claims) return;
    const checked = context.sessions.check(claims);
    const refusal = checked instanceof Promise ? await checked : checked;
    if (refusal !== null) {
      request.sessionRefusal = refusal;
      return;
    }
    request.playerId = claims.playerId;
    request.session = claims;
  });
}

export function requirePlayer(request: FastifyRequest): string {
  if (request.playerId === null) {
    const reason = request.sessionRefusal
      ? REFUSALS[request.sessionRefusal]
      : 'a valid session is required: send Authorization: Bearer <token>';
    throw new ApiError('NO_SESSION', reason);
  }
  return request.playerId;
}

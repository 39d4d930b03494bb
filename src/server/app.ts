import fs from 'node:fs';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { BlockLibrary } from './blockLibrary.ts';
import type { ServerConfig } from './config.ts';
import { ApiError, errorBody, handleError } from './http/errors.ts';
import { registerSecurityHeaders } from './http/headers.ts';
import { registerAccountRoutes } from './routes/account.ts';
import { registerClientConfigRoute } from './routes/clientConfig.ts';
import { registerPlayRoutes } from './routes/plays.ts';
import { registerSessionRoutes } from './routes/session.ts';
import { registerTestRoutes } from './routes/testMode.ts';
import { Sales } from './sales.ts';
import type { Store } from './store/types.ts';
import { checkSession } from './tokens.ts';
import type { PairKey } from '../rules/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session's player, set from a valid Bearer token before anything else runs. */
    playerId: string | null;
  }
}

export interface AppDeps {
  config: ServerConfig;
  store: Store;
  library: BlockLibrary;
  clock?: () => Date;
}

/** What the routes share. */
export interface AppContext {
  config: ServerConfig;
  store: Store;
  library: BlockLibrary;
  sales: Sales;
  sessionKey: Buffer;
  clock: () => Date;
  /**
   * Test mode: the unit pair a player's next play will show, and the seed that lays it
   * out (the playId when none is given; a fixed seed gives the same faces every run).
   */
  fixtures: Map<string, { pair: PairKey; seed?: string }>;
}

/** Largest request body accepted: every request of the API fits in a few hundred bytes. */
export const BODY_LIMIT_BYTES = 4096;

export function requirePlayer(request: FastifyRequest): string {
  if (request.playerId === null) {
    throw new ApiError('NO_SESSION', 'a valid session is required: send Authorization: Bearer <token>');
  }
  return request.playerId;
}

export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; context: AppContext }> {
  const { config } = deps;
  const context: AppContext = {
    config,
    store: deps.store,
    library: deps.library,
    sales: new Sales(config.sales),
    sessionKey: await deps.store.sessionKey(),
    clock: deps.clock ?? (() => new Date()),
    fixtures: new Map(),
  };
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    logger: { level: process.env.LOG_LEVEL ?? 'warn' },
    // One log line per request would cost more than the play itself.
    logController: new LogController({ disableRequestLogging: true }),
    // Strict validation: no type coercion ("100" is not 100), extra fields refused, not dropped.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
    return503OnClosing: true,
  });
  app.decorateRequest('playerId', null);
  // The API speaks JSON only: any other body type is refused with 415.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
  registerSecurityHeaders(app, config.portalOrigins);

  // The session is read first, so that rate limiting counts per session.
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
  await app.register(fastifyRateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // The client's static files are not counted: only the API is limited.
    allowList: (request) => !request.url.startsWith('/api/'),
    keyGenerator: (request) => (request.playerId !== null ? `player:${request.playerId}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, ctx) =>
      new ApiError('RATE_LIMITED', `too many requests; retry in ${Math.ceil(ctx.ttl / 1000)} s`),
  });

  app.get(
    '/api/health',
    { schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } } } },
    async () => ({ ok: true }),
  );
  registerClientConfigRoute(app, context);
  registerSessionRoutes(app, context);
  registerAccountRoutes(app, context);
  registerPlayRoutes(app, context);
  if (config.testMode) registerTestRoutes(app, context);

  if (fs.existsSync(config.clientDir)) {
    await app.register(fastifyStatic, { root: config.clientDir, prefix: '/', index: 'index.html' });
  }
  return { app, context };
}

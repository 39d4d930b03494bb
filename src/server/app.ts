import fs from 'node:fs';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { HealthResponseSchema, type ApiError as ApiErrorBody, type HealthResponse } from '../contract/api.ts';
import type { BlockLibrary } from './blocks/blockLibrary.ts';
import type { ServerConfig } from './config.ts';
import { apiServer } from './http/apiServer.ts';
import { registerSessionReader } from './http/auth.ts';
import { registerClientFiles } from './http/clientFiles.ts';
import type { AppContext, AppExtension } from './http/context.ts';
import { Connections, requestTimeoutOptions } from './http/connections.ts';
import { ApiError, clientErrorHandler, errorBody, handleError, handleFrameworkError } from './http/errors.ts';
import { registerSecurityHeaders } from './http/headers.ts';
import { readLedgerAuditRecord } from './ops/ledgerAuditRecord.ts';
import { loggerOptions, registerRequestLog, requestIdOf } from './http/requestLog.ts';
import { registerRequestMetrics } from './metrics/requestMetrics.ts';
import { ServerMetrics } from './metrics/serverMetrics.ts';
import { SharedCounters, sharedRateLimitStore } from './http/rateLimitStore.ts';
import { registerAccountRoutes } from './routes/account.ts';
import { registerBlockRoutes } from './routes/blocks.ts';
import { registerClientConfigRoute } from './routes/clientConfig.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { notReady } from './routes/readiness.ts';
import { registerPlayRoutes } from './routes/plays.ts';
import { registerSessionRoutes } from './routes/session.ts';
import { SalesCalendar } from './salesWindow/salesCalendar.ts';
import { openSessionBook } from './sessions/openSessionBook.ts';
import { loadSessionKeyring, type SessionKeyring } from './sessions/sessionKeys.ts';
import { SessionRegistry } from './sessions/sessionRegistry.ts';
import { SalesControlWatcher } from './salesWindow/salesControlWatcher.ts';
import { DemoPurgeTimer } from './demoPurge.ts';
import { SaleRoom, type SaleWatcher } from './sale/saleRoom.ts';
import { SaleRoots } from './sale/roots.ts';
import type { Store } from './store/types.ts';
import type { BlockPublication } from './transparency/publication.ts';
import { registerTransparencyRoutes } from './transparency/routes.ts';
import { OperatorWallet } from './operatorWallet/operatorWallet.ts';

export interface AppDeps {
  config: ServerConfig;
  store: Store;
  library: BlockLibrary;
  publication: BlockPublication;
  /** The blocks on sale whose publication a sale awaits; made from the store and publication when not given. */
  roots?: SaleRoots;
  /** Told of every unit sold (the demo pool's supply). */
  saleWatcher?: SaleWatcher | null;
  clock?: () => Date;
  /** Plugged in from outside the app (test mode); none on a real server. */
  extensions?: readonly AppExtension[];
  /** The session keys already read (main.ts checks them first); read from the configuration otherwise. */
  sessionKeys?: SessionKeyring;
}

/** A 404's body: names the path, cut short (a long URL is not echoed back). */
function noRoute(request: FastifyRequest): ApiErrorBody {
  const path = request.url.split('?')[0]!;
  const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
  return errorBody('NOT_FOUND', `no route ${request.method} ${shown}`);
}

/** Largest request body accepted: every request of the API fits in a few hundred bytes. */
export const BODY_LIMIT_BYTES = 4096;

export interface BuiltApp {
  app: FastifyInstance;
  context: AppContext;
  /** The server's connections: capped, and drained on shutdown. */
  connections: Connections;
  /** Prometheus metrics, when METRICS_PORT is set. */
  metrics: ServerMetrics | null;
}

export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const { config } = deps;
  const extensions = deps.extensions ?? [];
  let store = deps.store;
  for (const extension of extensions) store = extension.wrapStore?.(store) ?? store;
  const clock = deps.clock ?? (() => new Date());
  const sessionBook = await openSessionBook(config);
  const sales = new SalesCalendar(config.sales);
  const wallet = config.wallet
    ? new OperatorWallet(store, config.wallet, { log: (level, message) => app.log[level](message) })
    : null;
  const roots = deps.roots ?? new SaleRoots(deps.store, deps.publication);
  const context: AppContext = {
    config,
    store,
    library: deps.library,
    publication: deps.publication,
    sales,
    sessionKeys: deps.sessionKeys ?? loadSessionKeyring(config),
    sessions: new SessionRegistry(
      sessionBook,
      { idleSeconds: config.sessionIdleSeconds, pollMs: config.sessionPollMs },
      // The context's clock, which a test may set after the start.
      () => context.clock(),
      (error) => app.log.warn({ err: error }, 'cannot read or write the sessions; trying again'),
    ),
    clock,
    wallet,
    // The context's clock, which a test may set after the start: a sale that waited takes its time after.
    sale: new SaleRoom({
      store,
      roots,
      sales,
      wallet,
      watcher: deps.saleWatcher ?? null,
      clock: () => context.clock(),
    }),
  };
  const app = Fastify({
    // Behind the operator's proxies (TRUST_PROXY), request.ip is the client's: limits and logs see it.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: BODY_LIMIT_BYTES,
    logger: loggerOptions(config.logLevel),
    genReqId: requestIdOf,
    // Fastify's two lines per request stay off (they would cost more than the play itself);
    // registerRequestLog writes one, and only at LOG_LEVEL=info or below.
    logController: new LogController({ disableRequestLogging: true }),
    // Strict validation: no type coercion ("100" is not 100), extra fields refused, not dropped.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
    // While draining, requests get SHUTTING_DOWN in the API's shape (below), not Fastify's 503.
    return503OnClosing: false,
    ...requestTimeoutOptions(config.limits.requestTimeoutMs),
    clientErrorHandler: clientErrorHandler(config.limits.requestTimeoutMs),
    frameworkErrors: handleFrameworkError,
  });
  const connections = new Connections(app.server, config.limits);
  await context.sessions.start();
  let demoPurge: DemoPurgeTimer | null = null;
  app.addHook('onClose', async () => {
    // A purge under way ends before the sessions' book closes.
    await demoPurge?.stop();
    await context.sessions.close();
  });
  registerRequestLog(app);
  // The operator's sales setting, as every instance sees it within SALES_POLL_MS.
  const salesWatcher = new SalesControlWatcher(deps.store, context.sales, config.salesPollMs, (error) =>
    app.log.warn({ err: error }, 'cannot read the sales setting; keeping the last one'),
  );
  await salesWatcher.refresh();
  salesWatcher.start();
  app.addHook('onClose', async () => salesWatcher.stop());
  let metrics: ServerMetrics | null = null;
  if (config.metrics) {
    metrics = new ServerMetrics({
      store: deps.store,
      salesOpen: () => context.sales.isOpen(context.clock()),
      salesScheduledOpen: () => context.sales.scheduledOpen(context.clock()),
      ready: async () => (await notReady(context)) === null,
      ledgerAudit: () => readLedgerAuditRecord(config.dataDir),
      clock: context.clock,
    });
    registerRequestMetrics(app, metrics);
    deps.store.observePlayBatches(metrics);
  }
  // Demo players unused for DEMO_PLAYER_TTL_DAYS go, off the request path, on every instance.
  if (config.demoPlayerTtlDays > 0) {
    demoPurge = new DemoPurgeTimer({
      store: deps.store,
      sessions: context.sessions,
      days: config.demoPlayerTtlDays,
      intervalMs: config.demoPurgeIntervalSeconds * 1000,
      clock: () => context.clock(),
      onPurged: (result) => {
        metrics?.demoPlayersPurged(result.players);
        app.log.info(`demo purge: ${result.players} idle demo players removed with ${result.plays} plays`);
      },
      onError: (error) => app.log.warn({ err: error }, 'demo purge failed; the next run tries again'),
    });
    demoPurge.start();
  }
  // The API speaks JSON only: any other body type is refused with 415.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(noRoute(request));
  });
  registerSecurityHeaders(app, config.portalOrigins);
  app.addHook('onRequest', async () => {
    if (connections.draining) throw new ApiError('SHUTTING_DOWN', 'this server is stopping: retry');
  });

  // With REDIS_URL, every instance counts in the same Redis (memory while it does not answer).
  const counters = config.redis ? await SharedCounters.open(app, config.redis) : null;
  // The session is read first, so that rate limiting counts per session.
  registerSessionReader(app, context);
  await app.register(fastifyRateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // The client's static files are not counted: only the API is limited.
    allowList: (request) => !request.url.startsWith('/api/'),
    keyGenerator: (request) => (request.playerId !== null ? `player:${request.playerId}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, ctx) =>
      new ApiError('RATE_LIMITED', `too many requests; retry in ${Math.ceil(ctx.ttl / 1000)} s`),
    ...(counters ? { store: sharedRateLimitStore(counters) } : {}),
  });

  const api = apiServer(app);
  api.get(
    '/api/health',
    { schema: { response: { 200: HealthResponseSchema } } },
    async (): Promise<HealthResponse> => ({ ok: true }),
  );
  registerHealthRoutes(api, context);
  registerClientConfigRoute(api, context);
  registerSessionRoutes(api, context);
  registerAccountRoutes(api, context);
  registerPlayRoutes(api, context);
  registerBlockRoutes(api, context);
  registerTransparencyRoutes(api, deps.publication.log);
  // Any other /api/ path, `..` in it or not, is no route of the API (not a file to look for).
  app.all('/api/*', async (request, reply) => reply.code(404).send(noRoute(request)));
  for (const extension of extensions) extension.register?.(api, context);

  if (fs.existsSync(config.clientDir)) {
    await registerClientFiles(app, config.clientDir);
  }
  return { app, context, connections, metrics };
}

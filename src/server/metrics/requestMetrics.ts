import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from './serverMetrics.ts';

/** The code at the start of every error body the API sends: `{"error":{"code":"SOLD_OUT",…`. */
const ERROR_CODE_AT_START = /^\{"error":\{"code":"([A-Z_]{1,40})"/;

/**
 * Times every request per route pattern (`/api/plays/:playId`, never the raw URL, so the
 * labels stay few) and counts error answers by code, whichever part of the server made
 * them (a route, the error handler, the rate limit, the not-found handler).
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      const code = ERROR_CODE_AT_START.exec(payload)?.[1];
      if (code) metrics.refusal(code);
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    // A 404 from a wildcard (the API's catch-all, a missing file) matched no route either.
    const pattern = request.routeOptions.url;
    const route = pattern === undefined || (reply.statusCode === 404 && pattern.endsWith('*')) ? 'unmatched' : pattern;
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
}

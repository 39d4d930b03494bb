import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.ts';

/** An incoming id is kept only when it is short and plain: it lands in logs and in a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `x-request-id` when sane (a proxy's, to follow it across), else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Query parameters whose values never reach a log line (launch tokens in a portal's URL, above all). */
const SECRET_PARAMETER = /token|secret|password|passwd|key|auth|signature|session|cookie/i;
const REDACTED = '[REDACTED]';

/** The URL as logged: the path, and the query with every secret-looking value replaced. */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape: judge the raw name.
      }
      return eq >= 0 && SECRET_PARAMETER.test(decoded) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

/**
 * pino's options: JSON lines on stdout; headers and body fields that carry credentials are
 * replaced wherever a log call would include them.
 */
export function loggerOptions(level: LogLevel): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
        'headers.authorization',
        'headers.cookie',
        'body.launchToken',
        'body.token',
        '*.launchToken',
        '*.token',
        '*.secret',
        '*.password',
        'launchToken',
        'token',
        'secret',
        'password',
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (request: { method?: string; url?: string; id?: string }) => ({
        method: request.method,
        url: loggableUrl(request.url ?? ''),
      }),
    },
  };
}

const LOGS_EACH_REQUEST: ReadonlySet<string> = new Set(['info', 'debug', 'trace']);

/**
 * Every answer carries its request id (`x-request-id`), and so does every log line of the
 * request (pino's `reqId`). At `LOG_LEVEL=info` or below, one line per request once
 * answered; above it, the check alone (requests are not logged one by one by default).
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!LOGS_EACH_REQUEST.has(request.log.level)) return;
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: loggableUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
}

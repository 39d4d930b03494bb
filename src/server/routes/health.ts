import { HealthResponseSchema, type HealthResponse } from '../../contract/api.ts';
import type { ApiServer } from '../http/apiServer.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { withErrors } from '../http/schemas.ts';
import { notReady } from './readiness.ts';

/**
 * Probes for a load balancer or an orchestrator, apart: `live` says the process answers
 * (restart it otherwise); `ready` says it can sell (send it players): see notReady. Not rate limited: probes come often, from one address.
 */
export function registerHealthRoutes(app: ApiServer, ctx: AppContext): void {
  app.get(
    '/api/health/live',
    { config: { rateLimit: false }, schema: { response: { 200: HealthResponseSchema } } },
    async (): Promise<HealthResponse> => ({ ok: true }),
  );

  app.get(
    '/api/health/ready',
    { config: { rateLimit: false }, schema: { response: withErrors(HealthResponseSchema, 503) } },
    async (): Promise<HealthResponse> => {
      const failed = await notReady(ctx);
      if (failed) throw new ApiError(failed.code, `not ready: ${failed.reason}`, 503);
      return { ok: true };
    },
  );
}

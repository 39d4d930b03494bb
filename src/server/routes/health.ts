import type { FastifyInstance } from 'fastify';
import { HealthResponseSchema, type HealthResponse } from '../../contract/api.ts';
import type { BlockPool } from '../store/types.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { withErrors } from '../http/schemas.ts';

/** Readiness waits this long for the database before answering « not ready ». */
const READY_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Probes for a load balancer or an orchestrator, apart: `live` says the process answers
 * (restart it otherwise); `ready` says it can sell (send it players): the database answers
 * and a block has a unit left. Not rate limited: probes come often, from one address.
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/api/health/live',
    { config: { rateLimit: false }, schema: { response: { 200: HealthResponseSchema } } },
    async (): Promise<HealthResponse> => ({ ok: true }),
  );

  app.get(
    '/api/health/ready',
    { config: { rateLimit: false }, schema: { response: withErrors(HealthResponseSchema, 503) } },
    async (): Promise<HealthResponse> => {
      let stakes: Set<number>;
      try {
        // The pools this server sells: demo play, and portal players' real money.
        const pools: BlockPool[] = [];
        if (ctx.config.demoMode) pools.push('demo');
        if (ctx.config.portalSecret !== null || pools.length === 0) pools.push('real');
        const each = await withTimeout(
          Promise.all(pools.map((pool) => ctx.store.stakesWithUnits(pool))),
          READY_TIMEOUT_MS,
        );
        stakes = new Set(each.flatMap((set) => [...set]));
      } catch (error) {
        const reason = error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
        throw new ApiError('INTERNAL', `not ready: the database does not answer (${reason})`, 503);
      }
      if (stakes.size === 0) throw new ApiError('SOLD_OUT', 'not ready: no block has a unit on sale', 503);
      return { ok: true };
    },
  );
}

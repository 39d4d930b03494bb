import type { FastifyInstance } from 'fastify';
import type { PairKey, SalesWindow, StakeCents } from '../../rules/index.ts';
import { requirePlayer, type AppContext } from '../app.ts';
import { ApiError } from '../http/errors.ts';
import { pairKeys, salesWindowSchema, stakeSchema, withErrors } from '../http/schemas.ts';

const ok = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;

/**
 * Routes for the browser tests, registered only when SPINCAKE_TEST_MODE=1. They change
 * outcomes and money, so they never exist on a real server.
 */
export function registerTestRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: { pair: PairKey; seed?: string } }>(
    '/api/test/fixture',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          // seed: the same faces on every run (visual baselines); the playId otherwise.
          properties: {
            pair: { type: 'string', enum: pairKeys },
            seed: { type: 'string', minLength: 1, maxLength: 100 },
          },
          required: ['pair'],
        },
        response: withErrors(ok, 400, 401),
      },
    },
    async (request) => {
      const { pair, seed } = request.body;
      ctx.fixtures.set(requirePlayer(request), seed === undefined ? { pair } : { pair, seed });
      return { ok: true };
    },
  );

  app.post<{ Body: { stakeCents: StakeCents } }>(
    '/api/test/exhaust',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { stakeCents: stakeSchema },
          required: ['stakeCents'],
        },
        response: withErrors(ok, 400),
      },
    },
    async (request) => {
      await ctx.store.closeBlocksOfStake(request.body.stakeCents);
      return { ok: true };
    },
  );

  app.post<{ Body: { balanceCents: number } }>(
    '/api/test/balance',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { balanceCents: { type: 'integer', minimum: 0, maximum: 1_000_000_000 } },
          required: ['balanceCents'],
        },
        response: withErrors(
          { type: 'object', properties: { balanceCents: { type: 'integer' } }, required: ['balanceCents'] },
          400,
          401,
        ),
      },
    },
    async (request) => {
      const player = await ctx.store.setBalance(requirePlayer(request), request.body.balanceCents, ctx.clock());
      if (!player) throw new ApiError('NO_SESSION', 'this session names no player');
      return { balanceCents: player.balanceCents };
    },
  );

  app.post<{ Body: { open: boolean; message?: string } }>(
    '/api/test/sales',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { open: { type: 'boolean' }, message: { type: 'string', maxLength: 500 } },
          required: ['open'],
        },
        response: withErrors(salesWindowSchema, 400),
      },
    },
    async (request): Promise<SalesWindow> => {
      ctx.sales.setOverride(request.body.open, request.body.message ?? null);
      return ctx.sales.window(ctx.clock());
    },
  );
}

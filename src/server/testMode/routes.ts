import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { SalesWindowSchema, StakeSchema, type SalesWindow } from '../../contract/api.ts';
import { LOT_PAIRS, type PairKey } from '../../rules/index.ts';
import { requirePlayer } from '../http/auth.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { withErrors } from '../http/schemas.ts';
import type { Fixtures } from './fixtures.ts';

/** The test routes' part of the API (docs/api.md, Test mode): defined here, never on a real server. */
const OkSchema = Type.Object({ ok: Type.Boolean() });

export const FixtureRequestSchema = Type.Object(
  {
    pair: Type.Unsafe<PairKey>({ type: 'string', enum: LOT_PAIRS.map((p) => p.key) }),
    // The same faces on every run (visual baselines); the playId otherwise.
    seed: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type FixtureRequest = Static<typeof FixtureRequestSchema>;

export const ExhaustRequestSchema = Type.Object({ stakeCents: StakeSchema }, { additionalProperties: false });
export type ExhaustRequest = Static<typeof ExhaustRequestSchema>;

export const BalanceRequestSchema = Type.Object(
  { balanceCents: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }) },
  { additionalProperties: false },
);
export type BalanceRequest = Static<typeof BalanceRequestSchema>;
const BalanceResponseSchema = Type.Object({ balanceCents: Type.Integer() });

export const SalesRequestSchema = Type.Object(
  { open: Type.Boolean(), message: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
);
export type SalesRequest = Static<typeof SalesRequestSchema>;

/**
 * Routes for the browser tests, registered only when SPINCAKE_TEST_MODE=1. They change
 * outcomes and money, so they never exist on a real server.
 */
export function registerTestRoutes(app: FastifyInstance, ctx: AppContext, fixtures: Fixtures): void {
  app.post<{ Body: FixtureRequest }>(
    '/api/test/fixture',
    { schema: { body: FixtureRequestSchema, response: withErrors(OkSchema, 400, 401) } },
    async (request) => {
      const { pair, seed } = request.body;
      fixtures.set(requirePlayer(request), seed === undefined ? { pair } : { pair, seed });
      return { ok: true };
    },
  );

  app.post<{ Body: ExhaustRequest }>(
    '/api/test/exhaust',
    { schema: { body: ExhaustRequestSchema, response: withErrors(OkSchema, 400) } },
    async (request) => {
      await ctx.store.closeBlocksOfStake(request.body.stakeCents);
      return { ok: true };
    },
  );

  app.post<{ Body: BalanceRequest }>(
    '/api/test/balance',
    { schema: { body: BalanceRequestSchema, response: withErrors(BalanceResponseSchema, 400, 401) } },
    async (request) => {
      const player = await ctx.store.setBalance(requirePlayer(request), request.body.balanceCents, ctx.clock());
      if (!player) throw new ApiError('NO_SESSION', 'this session names no player');
      return { balanceCents: player.balanceCents };
    },
  );

  app.post<{ Body: SalesRequest }>(
    '/api/test/sales',
    { schema: { body: SalesRequestSchema, response: withErrors(SalesWindowSchema, 400) } },
    async (request): Promise<SalesWindow> => {
      ctx.sales.setOverride(request.body.open, request.body.message ?? null);
      return ctx.sales.window(ctx.clock());
    },
  );
}

import { Type } from '@sinclair/typebox';
import { SalesWindowSchema, StakeSchema, type SalesWindow } from '../../contract/api.ts';
import { LOT_PAIRS, type PairKey } from '../../rules/index.ts';
import type { ApiServer } from '../http/apiServer.ts';
import { requirePlayer } from '../http/auth.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { withErrors } from '../http/schemas.ts';
import type { SalesDates } from '../salesWindow/salesCalendar.ts';
import type { Fixtures, TestModeStore } from './fixtures.ts';

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

export const ExhaustRequestSchema = Type.Object({ stakeCents: StakeSchema }, { additionalProperties: false });

export const BalanceRequestSchema = Type.Object(
  { balanceCents: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }) },
  { additionalProperties: false },
);
const BalanceResponseSchema = Type.Object({ balanceCents: Type.Integer() });

const SalesDateSchema = Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Null()]));
export const SalesRequestSchema = Type.Object(
  {
    open: Type.Boolean(),
    message: Type.Optional(Type.String({ maxLength: 500 })),
    // The window the players are told of, as SALES_OPENS_AT / SALES_CLOSES_AT give it (ISO 8601).
    opensAt: SalesDateSchema,
    closesAt: SalesDateSchema,
  },
  { additionalProperties: false },
);

/**
 * Routes for the browser tests, registered only when SPINCAKE_TEST_MODE=1. They change
 * outcomes and money, so they never exist on a real server.
 */
export function registerTestRoutes(
  app: ApiServer,
  ctx: AppContext & { store: TestModeStore },
  fixtures: Fixtures,
): void {
  app.post(
    '/api/test/fixture',
    { schema: { body: FixtureRequestSchema, response: withErrors(OkSchema, 400, 401) } },
    async (request) => {
      const { pair, seed } = request.body;
      fixtures.set(requirePlayer(request), seed === undefined ? { pair } : { pair, seed });
      return { ok: true };
    },
  );

  app.post(
    '/api/test/exhaust',
    { schema: { body: ExhaustRequestSchema, response: withErrors(OkSchema, 400) } },
    async (request) => {
      await ctx.store.closeBlocksOfStake(request.body.stakeCents);
      return { ok: true };
    },
  );

  app.post(
    '/api/test/balance',
    { schema: { body: BalanceRequestSchema, response: withErrors(BalanceResponseSchema, 400, 401) } },
    async (request) => {
      const player = await ctx.store.setBalance(requirePlayer(request), request.body.balanceCents, ctx.clock());
      if (!player) throw new ApiError('NO_SESSION', 'this session names no player');
      return { balanceCents: player.balanceCents };
    },
  );

  app.post(
    '/api/test/sales',
    { schema: { body: SalesRequestSchema, response: withErrors(SalesWindowSchema, 400) } },
    async (request): Promise<SalesWindow> => {
      const { open, message, opensAt, closesAt } = request.body;
      const dates = opensAt === undefined && closesAt === undefined ? null : salesDates(opensAt, closesAt);
      ctx.sales.setOverride(open, message ?? null, dates);
      return ctx.sales.window(ctx.clock());
    },
  );
}

/** The override's dates, checked as the configuration checks SALES_OPENS_AT / SALES_CLOSES_AT. */
function salesDates(opensAt: string | null | undefined, closesAt: string | null | undefined): SalesDates {
  const date = (name: string, iso: string | null | undefined): Date | null => {
    if (iso === null || iso === undefined) return null;
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) throw new ApiError('INVALID_INPUT', `${name} is not a date: ${iso}`);
    return d;
  };
  const dates = { opensAt: date('opensAt', opensAt), closesAt: date('closesAt', closesAt) };
  if (dates.opensAt && dates.closesAt && dates.closesAt <= dates.opensAt) {
    throw new ApiError('INVALID_INPUT', 'closesAt must come after opensAt');
  }
  return dates;
}

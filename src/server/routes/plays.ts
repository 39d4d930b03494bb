import type { FastifyInstance } from 'fastify';
import { unitForPair } from '../../emission/index.ts';
import type { Launched, PlayResponse, PlaysPage, StakeCents, Unit } from '../../rules/index.ts';
import { requirePlayer, type AppContext } from '../app.ts';
import { ApiError } from '../http/errors.ts';
import { playView } from '../http/playView.ts';
import {
  UUID_PATTERN,
  emptyBody,
  playIdParams,
  playResponseSchema,
  playsPageSchema,
  stakeSchema,
  withErrors,
} from '../http/schemas.ts';
import { seededRandom } from '../seededRandom.ts';
import type { BuyResult } from '../store/types.ts';

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;

const REFUSALS: Record<Exclude<BuyResult, { ok: true }>['code'], string> = {
  SALES_CLOSED: 'sales are closed',
  INSUFFICIENT_BALANCE: 'your balance is too low for this stake',
  SOLD_OUT: 'no unit of this stake is left for sale',
  PLAY_ID_REUSED: 'this playId was already used for another play',
  NOT_FOUND: 'this session names no player',
};

export function registerPlayRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: { stakeCents: StakeCents; playId: string } }>(
    '/api/plays',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { stakeCents: stakeSchema, playId: { type: 'string', pattern: UUID_PATTERN } },
          required: ['stakeCents', 'playId'],
        },
        response: withErrors(playResponseSchema, 400, 401, 402, 403, 409, 429),
      },
    },
    async (request): Promise<PlayResponse> => {
      const playerId = requirePlayer(request);
      const { stakeCents } = request.body;
      const playId = request.body.playId.toLowerCase();
      const now = ctx.clock();
      // Test mode: a fixture is taken for this play, and given back if the play is refused.
      const pair = ctx.fixtures.get(playerId);
      let fixtureUnit: Unit | undefined;
      if (pair !== undefined) {
        ctx.fixtures.delete(playerId);
        fixtureUnit = unitForPair(pair.pair, stakeCents, seededRandom(pair.seed ?? playId));
      }
      const result = await ctx.store.buyPlay({
        playerId,
        playId,
        stakeCents,
        salesOpen: ctx.sales.isOpen(now),
        fixtureUnit,
        now,
      });
      if (!result.ok) {
        if (pair !== undefined && !ctx.fixtures.has(playerId)) ctx.fixtures.set(playerId, pair);
        const message =
          result.code === 'SALES_CLOSED'
            ? ctx.sales.window(now).message || REFUSALS.SALES_CLOSED
            : REFUSALS[result.code];
        throw new ApiError(result.code, message);
      }
      if (result.replayed && pair !== undefined && !ctx.fixtures.has(playerId)) ctx.fixtures.set(playerId, pair);
      return { play: playView(result.play), balanceCents: result.balanceCents };
    },
  );

  app.get<{ Querystring: { limit?: string; before?: string } }>(
    '/api/plays',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            limit: { type: 'string', pattern: '^[1-9][0-9]{0,2}$' },
            before: { type: 'string', pattern: UUID_PATTERN },
          },
        },
        response: withErrors(playsPageSchema, 400, 401, 429),
      },
    },
    async (request): Promise<PlaysPage> => {
      const playerId = requirePlayer(request);
      const limit = request.query.limit === undefined ? DEFAULT_PAGE : Number(request.query.limit);
      if (limit > MAX_PAGE) throw new ApiError('INVALID_INPUT', `limit must be at most ${MAX_PAGE}`);
      const before = request.query.before?.toLowerCase();
      if (before !== undefined && !(await ctx.store.getPlay(playerId, before))) {
        throw new ApiError('NOT_FOUND', 'no such play of yours to page from');
      }
      const page = await ctx.store.listPlays({ playerId, limit, beforePlayId: before });
      const last = page.plays[page.plays.length - 1];
      return { plays: page.plays.map(playView), nextBefore: page.more && last ? last.playId : null };
    },
  );

  app.get<{ Params: { playId: string } }>(
    '/api/plays/:playId',
    { schema: { params: playIdParams, response: withErrors(playResponseSchema, 400, 401, 404, 429) } },
    async (request): Promise<PlayResponse> => {
      const playerId = requirePlayer(request);
      const play = await ctx.store.getPlay(playerId, request.params.playId.toLowerCase());
      if (!play) throw new ApiError('NOT_FOUND', 'no such play of yours');
      return { play: playView(play), balanceCents: await balanceOf(ctx, playerId) };
    },
  );

  app.post<{ Params: { playId: string }; Body: { launched: Launched } }>(
    '/api/plays/:playId/progress',
    {
      schema: {
        params: playIdParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { launched: { type: 'array', items: { type: 'boolean' }, minItems: 4, maxItems: 4 } },
          required: ['launched'],
        },
        response: withErrors(playResponseSchema, 400, 401, 404, 429),
      },
    },
    async (request): Promise<PlayResponse> => {
      const playerId = requirePlayer(request);
      const play = await ctx.store.recordProgress(playerId, request.params.playId.toLowerCase(), request.body.launched);
      if (!play) throw new ApiError('NOT_FOUND', 'no such play of yours');
      return { play: playView(play), balanceCents: await balanceOf(ctx, playerId) };
    },
  );

  app.post<{ Params: { playId: string } }>(
    '/api/plays/:playId/finish',
    {
      schema: { params: playIdParams, body: emptyBody, response: withErrors(playResponseSchema, 400, 401, 404, 429) },
      // No body at all is the same as {}.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request): Promise<PlayResponse> => {
      const playerId = requirePlayer(request);
      const play = await ctx.store.finishPlay(playerId, request.params.playId.toLowerCase());
      if (!play) throw new ApiError('NOT_FOUND', 'no such play of yours');
      return { play: playView(play), balanceCents: await balanceOf(ctx, playerId) };
    },
  );
}

async function balanceOf(ctx: AppContext, playerId: string): Promise<number> {
  const player = await ctx.store.getPlayer(playerId);
  if (!player) throw new ApiError('NO_SESSION', 'this session names no player');
  return player.balanceCents;
}

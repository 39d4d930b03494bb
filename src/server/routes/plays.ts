import {
  EmptyBodySchema,
  PlayIdParamsSchema,
  PlayRequestSchema,
  PlayResponseSchema,
  PlaysPageSchema,
  PlaysQuerySchema,
  ProgressRequestSchema,
  TicketProofSchema,
  type TicketProofResponse,
  type PlayResponse,
  type PlaysPage,
} from '../../contract/api.ts';
import { TICKET_PROOF_FORMAT } from '../../proofs/index.ts';
import type { ApiServer } from '../http/apiServer.ts';
import { requirePlayer } from '../http/auth.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { playView } from '../http/playView.ts';
import { withErrors } from '../http/schemas.ts';
import type { BuyRefusal } from '../store/types.ts';

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;

const REFUSALS: Record<BuyRefusal, string> = {
  SALES_CLOSED: 'sales are closed',
  INSUFFICIENT_BALANCE: 'your balance is too low for this stake',
  SOLD_OUT: 'no unit of this stake is left for sale',
  PLAY_ID_REUSED: 'this playId was already used for another play',
  NOT_FOUND: 'this session names no player',
  WALLET_UNAVAILABLE: 'the operator’s wallet did not confirm the stake: nothing was sold; try again',
};

export function registerPlayRoutes(app: ApiServer, ctx: AppContext): void {
  app.post(
    '/api/plays',
    {
      schema: {
        body: PlayRequestSchema,
        response: withErrors(PlayResponseSchema, 400, 401, 402, 403, 409, 429, 503),
      },
    },
    async (request): Promise<PlayResponse> => {
      const playerId = requirePlayer(request);
      const { stakeCents } = request.body;
      const playId = request.body.playId.toLowerCase();
      const now = ctx.clock();
      const result = await ctx.sale.sell({ playerId, playId, stakeCents, now });
      if (!result.ok) {
        const message =
          result.code === 'SALES_CLOSED'
            ? ctx.sales.window(now).message || REFUSALS.SALES_CLOSED
            : ('message' in result && result.message) || REFUSALS[result.code as keyof typeof REFUSALS];
        throw new ApiError(result.code, message);
      }
      return { play: playView(result.play), balanceCents: result.balanceCents };
    },
  );

  app.get(
    '/api/plays',
    { schema: { querystring: PlaysQuerySchema, response: withErrors(PlaysPageSchema, 400, 401, 429) } },
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

  app.get(
    '/api/plays/:playId',
    { schema: { params: PlayIdParamsSchema, response: withErrors(PlayResponseSchema, 400, 401, 404, 429) } },
    async (request): Promise<PlayResponse> => {
      const playerId = requirePlayer(request);
      const play = await ctx.store.getPlay(playerId, request.params.playId.toLowerCase());
      if (!play) throw new ApiError('NOT_FOUND', 'no such play of yours');
      return { play: playView(play), balanceCents: await balanceOf(ctx, playerId) };
    },
  );

  app.get(
    '/api/plays/:playId/proof',
    { schema: { params: PlayIdParamsSchema, response: withErrors(TicketProofSchema, 400, 401, 404, 429) } },
    async (request): Promise<TicketProofResponse> => {
      const playerId = requirePlayer(request);
      const play = await ctx.store.getPlay(playerId, request.params.playId.toLowerCase());
      if (!play) throw new ApiError('NOT_FOUND', 'no such play of yours');
      if (play.blockId === null || play.position === null) {
        throw new ApiError('NOT_FOUND', 'this play is a test unit that comes from no block: it has no proof');
      }
      const block = (await ctx.store.listBlocks()).find((b) => b.id === play.blockId);
      if (!block) throw new ApiError('INTERNAL', `the block of play ${play.playId} is not loaded`, 500);
      const proof = await ctx.library.proof(block, play.position);
      const { root, seedHash } = await ctx.library.summary(block);
      // The unit as the block holds it, not as the play row recorded it: the verifier compares the two.
      const unit = ctx.library.unitAt(block, play.position);
      return {
        format: TICKET_PROOF_FORMAT,
        playId: play.playId,
        blockId: block.id,
        stakeCents: block.stakeCents,
        count: block.count,
        position: play.position,
        wheels: unit.wheels.map((w) => ({ segments: w.segments, stop: w.stop })),
        lotCents: proof.lotCents,
        salt: proof.salt,
        leaf: proof.leaf,
        path: proof.path,
        root,
        seedHash,
        playedAt: play.createdAt,
        log: await ctx.publication.ticketLog(block.id, new Date(play.createdAt)),
      };
    },
  );

  app.post(
    '/api/plays/:playId/progress',
    {
      schema: {
        params: PlayIdParamsSchema,
        body: ProgressRequestSchema,
        response: withErrors(PlayResponseSchema, 400, 401, 404, 429),
      },
    },
    async (request): Promise<PlayResponse> => {
      const playerId = requirePlayer(request);
      const play = await ctx.store.recordProgress(playerId, request.params.playId.toLowerCase(), request.body.launched);
      if (!play) throw new ApiError('NOT_FOUND', 'no such play of yours');
      return { play: playView(play), balanceCents: await balanceOf(ctx, playerId) };
    },
  );

  app.post(
    '/api/plays/:playId/finish',
    {
      schema: {
        params: PlayIdParamsSchema,
        body: EmptyBodySchema,
        response: withErrors(PlayResponseSchema, 400, 401, 404, 429),
      },
      // No body at all is the same as {}; a JSON `null` is a body, and not an object: refused.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
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
  // A wallet player's balance is the wallet's latest answer, not asked again on every step.
  const balanceCents = await ctx.sale.purseOf(playerId).lastBalance(playerId);
  if (balanceCents === null) throw new ApiError('NO_SESSION', 'this session names no player');
  return balanceCents;
}

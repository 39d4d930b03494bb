import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { PlayIdParamsSchema, PlayRequestSchema } from '../../contract/api.ts';
import type { StakeCents } from '../../rules/index.ts';
import { apiServer } from './apiServer.ts';
import { withErrors } from './schemas.ts';

/**
 * The routes' types come from their schemas: this file is typechecked with the rest (tsc),
 * so each `@ts-expect-error` below fails the typecheck the day a route's request or reply
 * is no longer typed from its schema (unknown, or any), and so does each typed read.
 */
const EchoSchema = Type.Object({ stakeCents: Type.Integer(), playId: Type.String() });

const app = apiServer(Fastify());
app.post(
  '/plays/:playId',
  { schema: { params: PlayIdParamsSchema, body: PlayRequestSchema, response: withErrors(EchoSchema, 400) } },
  async (request) => {
    const stakeCents: StakeCents = request.body.stakeCents;
    const playId: string = request.params.playId;
    // @ts-expect-error: a field the body's schema does not have
    void request.body.stake;
    // @ts-expect-error: a field the params' schema does not have
    void request.params.id;
    return { stakeCents, playId };
  },
);
app.get(
  '/short',
  { schema: { response: withErrors(EchoSchema, 400) } },
  // @ts-expect-error: a reply its response schemas do not describe (playId missing)
  async () => ({ stakeCents: 100 }),
);
afterAll(() => app.close());

describe('routes typed from their schemas', () => {
  const playId = '0190f0aa-7d1c-7b2e-8f00-0123456789ab';

  it('runs the handler on a body its schema accepts', async () => {
    const reply = await app.inject({ method: 'POST', url: `/plays/${playId}`, payload: { stakeCents: 200, playId } });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ stakeCents: 200, playId });
  });
});

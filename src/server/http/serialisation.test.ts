import type { TSchema } from '@sinclair/typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  AccountResponseSchema as accountSchema,
  PlayResponseSchema as playResponseSchema,
  PlaysPageSchema as playsPageSchema,
  SessionResponseSchema as sessionSchema,
} from '../../contract/api.ts';
import { withErrors } from './schemas.ts';

/**
 * The response schemas drive fast-json-stringify: these bodies were pinned byte for byte
 * from the hand-written schemas, so that any change of schema that changes the bytes on
 * the wire (order, dropped fields, number or null handling) fails here.
 */
const wheel = (stop: number) => ({
  segments: [
    { symbol: 'bell', points: 0, extra: 'dropped' },
    { symbol: 'cupcake', points: 50 },
    { symbol: 'macaron', points: 100 },
    { symbol: 'donut', points: 150 },
    { symbol: 'cherry', points: 500 },
    { symbol: 'croissant', points: 250 },
  ],
  stop,
  hidden: true,
});

// Fields in another order than the schema's, and fields the schema does not name (dropped).
const play = {
  finished: false,
  launched: [true, false, true, false],
  blockId: 'b'.repeat(64),
  position: 12345,
  playId: '0190f0aa-7d1c-7b2e-8f00-0123456789ab',
  stakeCents: 200,
  createdAt: '2026-11-30T19:00:00.000Z',
  wheels: [wheel(0), wheel(1), wheel(5), wheel(3)],
  jeu1: { bells: 3, winCents: 1000, secret: 1 },
  jeu2: { points: 1250, winCents: 400 },
  winCents: 1400,
  balanceBeforeCents: 10_000,
  balanceAfterCents: 11_200,
};

const PLAY_JSON =
  '{"playId":"0190f0aa-7d1c-7b2e-8f00-0123456789ab","stakeCents":200,"createdAt":"2026-11-30T19:00:00.000Z",' +
  '"wheels":[' +
  [0, 1, 5, 3]
    .map(
      (stop) =>
        '{"segments":[{"symbol":"bell","points":0},{"symbol":"cupcake","points":50},{"symbol":"macaron","points":100},' +
        '{"symbol":"donut","points":150},{"symbol":"cherry","points":500},{"symbol":"croissant","points":250}],' +
        `"stop":${stop}}`,
    )
    .join(',') +
  '],"jeu1":{"bells":3,"winCents":1000},"jeu2":{"points":1250,"winCents":400},"winCents":1400,' +
  '"balanceBeforeCents":10000,"balanceAfterCents":11200,"launched":[true,false,true,false],"finished":false}';

async function serialise(schema: TSchema, body: unknown, status: 200 | 400 = 200): Promise<string> {
  const app = Fastify();
  app.get('/', { schema: { response: withErrors(schema, 400) } }, async (_request, reply) =>
    reply.code(status).send(body),
  );
  try {
    return (await app.inject({ method: 'GET', url: '/' })).body;
  } finally {
    await app.close();
  }
}

describe('response serialisation', () => {
  it('writes a full Play response byte for byte as pinned', async () => {
    expect(await serialise(playResponseSchema, { balanceCents: 11_200, play, extra: 1 })).toBe(
      `{"play":${PLAY_JSON},"balanceCents":11200}`,
    );
  });

  it('writes a page of plays, an account, a session and an error as pinned', async () => {
    expect(await serialise(playsPageSchema, { plays: [play, play], nextBefore: null })).toBe(
      `{"plays":[${PLAY_JSON},${PLAY_JSON}],"nextBefore":null}`,
    );
    expect(await serialise(playsPageSchema, { plays: [], nextBefore: play.playId })).toBe(
      `{"plays":[],"nextBefore":"${play.playId}"}`,
    );
    const account = {
      unfinishedPlay: play,
      playerId: 'demo-1',
      balanceCents: 9900,
      stakes: [
        { stakeCents: 100, onSale: true, x: 1 },
        { stakeCents: 500, onSale: false },
      ],
      sales: { open: false, opensAt: '2026-12-14T09:00:00.000Z', closesAt: null, message: 'Fermé', y: 2 },
      demo: true,
    };
    expect(await serialise(accountSchema, account)).toBe(
      '{"playerId":"demo-1","balanceCents":9900,"stakes":[{"stakeCents":100,"onSale":true},' +
        '{"stakeCents":500,"onSale":false}],"sales":{"open":false,"opensAt":"2026-12-14T09:00:00.000Z",' +
        `"closesAt":null,"message":"Fermé"},"demo":true,"unfinishedPlay":${PLAY_JSON}}`,
    );
    expect(await serialise(accountSchema, { ...account, unfinishedPlay: null })).toBe(
      '{"playerId":"demo-1","balanceCents":9900,"stakes":[{"stakeCents":100,"onSale":true},' +
        '{"stakeCents":500,"onSale":false}],"sales":{"open":false,"opensAt":"2026-12-14T09:00:00.000Z",' +
        '"closesAt":null,"message":"Fermé"},"demo":true,"unfinishedPlay":null}',
    );
    expect(await serialise(sessionSchema, { balanceCents: 0, playerId: 'portal-a', token: 't.s', k: 1 })).toBe(
      '{"token":"t.s","playerId":"portal-a","balanceCents":0}',
    );
    expect(
      await serialise(sessionSchema, { error: { code: 'SOLD_OUT', message: 'none left', stack: 'x' }, z: 1 }, 400),
    ).toBe('{"error":{"code":"SOLD_OUT","message":"none left"}}');
  });
});

import { LOT_PAIRS, SEGMENTS_PER_WHEEL, STAKES_CENTS, SYMBOLS, WHEELS_PER_UNIT } from '../../rules/index.ts';

/** JSON schemas of the API: requests are validated, responses serialised, from these. */

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const stakeSchema = { type: 'integer', enum: [...STAKES_CENTS] } as const;
const cents = { type: 'integer' } as const;

export const errorSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
} as const;

const segmentSchema = {
  type: 'object',
  properties: { symbol: { type: 'string', enum: [...SYMBOLS] }, points: { type: 'integer' } },
  required: ['symbol', 'points'],
} as const;

export const playSchema = {
  type: 'object',
  properties: {
    playId: { type: 'string' },
    stakeCents: cents,
    createdAt: { type: 'string' },
    wheels: {
      type: 'array',
      minItems: WHEELS_PER_UNIT,
      maxItems: WHEELS_PER_UNIT,
      items: {
        type: 'object',
        properties: {
          segments: { type: 'array', minItems: SEGMENTS_PER_WHEEL, maxItems: SEGMENTS_PER_WHEEL, items: segmentSchema },
          stop: { type: 'integer' },
        },
        required: ['segments', 'stop'],
      },
    },
    jeu1: {
      type: 'object',
      properties: { bells: { type: 'integer' }, winCents: cents },
      required: ['bells', 'winCents'],
    },
    jeu2: {
      type: 'object',
      properties: { points: { type: 'integer' }, winCents: cents },
      required: ['points', 'winCents'],
    },
    winCents: cents,
    balanceBeforeCents: cents,
    balanceAfterCents: cents,
    launched: { type: 'array', items: { type: 'boolean' }, minItems: 4, maxItems: 4 },
    finished: { type: 'boolean' },
  },
  required: [
    'playId',
    'stakeCents',
    'createdAt',
    'wheels',
    'jeu1',
    'jeu2',
    'winCents',
    'balanceBeforeCents',
    'balanceAfterCents',
    'launched',
    'finished',
  ],
} as const;

export const playResponseSchema = {
  type: 'object',
  properties: { play: playSchema, balanceCents: cents },
  required: ['play', 'balanceCents'],
} as const;

export const playsPageSchema = {
  type: 'object',
  properties: { plays: { type: 'array', items: playSchema }, nextBefore: { type: ['string', 'null'] } },
  required: ['plays', 'nextBefore'],
} as const;

export const salesWindowSchema = {
  type: 'object',
  properties: {
    open: { type: 'boolean' },
    opensAt: { type: ['string', 'null'] },
    closesAt: { type: ['string', 'null'] },
    message: { type: 'string' },
  },
  required: ['open', 'opensAt', 'closesAt', 'message'],
} as const;

export const accountSchema = {
  type: 'object',
  properties: {
    playerId: { type: 'string' },
    balanceCents: cents,
    stakes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { stakeCents: cents, onSale: { type: 'boolean' } },
        required: ['stakeCents', 'onSale'],
      },
    },
    sales: salesWindowSchema,
    unfinishedPlay: { anyOf: [playSchema, { type: 'null' }] },
  },
  required: ['playerId', 'balanceCents', 'stakes', 'sales', 'unfinishedPlay'],
} as const;

export const sessionSchema = {
  type: 'object',
  properties: { token: { type: 'string' }, playerId: { type: 'string' }, balanceCents: cents },
  required: ['token', 'playerId', 'balanceCents'],
} as const;

export const playIdParams = {
  type: 'object',
  additionalProperties: false,
  properties: { playId: { type: 'string', pattern: UUID_PATTERN } },
  required: ['playId'],
} as const;

export const pairKeys = LOT_PAIRS.map((p) => p.key);

/** Routes that take no body still declare it: nothing, or an empty object. */
export const emptyBody = { type: 'object', additionalProperties: false, maxProperties: 0 } as const;

/** Standard error responses, so that they are documented with each route. */
export function withErrors(ok: object, ...statuses: number[]): Record<number, object> {
  const responses: Record<number, object> = { 200: ok };
  for (const s of statuses) responses[s] = errorSchema;
  return responses;
}

import { Type, type Static } from '@sinclair/typebox';
import {
  SEGMENTS_PER_WHEEL,
  STAKES_CENTS,
  SYMBOLS,
  WHEELS_PER_UNIT,
  type Cents,
  type StakeCents,
  type SymbolName,
} from '../rules/index.ts';
import type { ErrorCode } from './errorCodes.ts';

/**
 * The HTTP API, defined once: each JSON schema below validates requests or serialises
 * responses on the server (fast-json-stringify), and each type is derived from its schema
 * with Static<>, for the server that produces the data and the client that only shows it.
 *
 * Where a TypeScript type is narrower than its wire schema (a stake, a symbol, the four
 * launched flags, a nullable string), the schema is written as it goes on the wire and
 * typed with Type.Unsafe: the schemas stay exactly those the serialiser was tuned for
 * (no anyOf on a hot path), and the types exactly those the client was written against.
 *
 * Browser code imports this module with `import type` only; ERROR_CODES, the one value
 * the client needs, lives in errorCodes.ts, free of the schema library.
 */

export type { ErrorCode } from './errorCodes.ts';

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const CentsSchema = Type.Unsafe<Cents>({ type: 'integer' });
/** A stake as the server sends it (the server only ever sends one of STAKES_CENTS). */
const StakeOutSchema = Type.Unsafe<StakeCents>({ type: 'integer' });
/** A stake as a client sends it: one of STAKES_CENTS, nothing else. */
export const StakeSchema = Type.Unsafe<StakeCents>({ type: 'integer', enum: [...STAKES_CENTS] });
const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
const LaunchedSchema = Type.Unsafe<[boolean, boolean, boolean, boolean]>({
  type: 'array',
  items: { type: 'boolean' },
  minItems: 4,
  maxItems: 4,
});

// ---------------------------------------------------------------- responses

export const ApiErrorSchema = Type.Object({
  error: Type.Object({ code: Type.Unsafe<ErrorCode>({ type: 'string' }), message: Type.String() }),
});
export type ApiError = Static<typeof ApiErrorSchema>;

export const HealthResponseSchema = Type.Object({ ok: Type.Boolean() });
export type HealthResponse = Static<typeof HealthResponseSchema>;

export const SessionResponseSchema = Type.Object({
  token: Type.String(),
  playerId: Type.String(),
  balanceCents: CentsSchema,
});
export type SessionResponse = Static<typeof SessionResponseSchema>;

/** POST /api/session/logout: the session is ended on every instance. */
export const LogoutResponseSchema = Type.Object({ loggedOut: Type.Literal(true) }, { additionalProperties: false });
export type LogoutResponse = Static<typeof LogoutResponseSchema>;

const SegmentSchema = Type.Object({
  symbol: Type.Unsafe<SymbolName>({ type: 'string', enum: [...SYMBOLS] }),
  points: Type.Integer(),
});

export const PlayWheelSchema = Type.Object({
  segments: Type.Array(SegmentSchema, { minItems: SEGMENTS_PER_WHEEL, maxItems: SEGMENTS_PER_WHEEL }),
  stop: Type.Integer(),
});
export type PlayWheel = Static<typeof PlayWheelSchema>;

/** Which wheels the player has launched, in wheel order. */
export type Launched = Static<typeof LaunchedSchema>;

export const PlaySchema = Type.Object({
  playId: Type.String(),
  stakeCents: StakeOutSchema,
  createdAt: Type.String(),
  wheels: Type.Array(PlayWheelSchema, { minItems: WHEELS_PER_UNIT, maxItems: WHEELS_PER_UNIT }),
  jeu1: Type.Object({ bells: Type.Integer(), winCents: CentsSchema }),
  jeu2: Type.Object({ points: Type.Integer(), winCents: CentsSchema }),
  winCents: CentsSchema,
  balanceBeforeCents: CentsSchema,
  balanceAfterCents: CentsSchema,
  launched: LaunchedSchema,
  finished: Type.Boolean(),
});
export type Play = Static<typeof PlaySchema>;

export const StakeOfferSchema = Type.Object({ stakeCents: StakeOutSchema, onSale: Type.Boolean() });
export type StakeOffer = Static<typeof StakeOfferSchema>;

export const SalesWindowSchema = Type.Object({
  open: Type.Boolean(),
  opensAt: NullableString,
  closesAt: NullableString,
  message: Type.String(),
});
export type SalesWindow = Static<typeof SalesWindowSchema>;

export const AccountResponseSchema = Type.Object({
  playerId: Type.String(),
  balanceCents: CentsSchema,
  stakes: Type.Array(StakeOfferSchema),
  sales: SalesWindowSchema,
  /** Whether this is a demo player's play money (« Recharger la démo » offered when it runs low); false: real money. */
  demo: Type.Boolean(),
  unfinishedPlay: Type.Union([PlaySchema, Type.Null()]),
});
export type AccountResponse = Static<typeof AccountResponseSchema>;

export const PlayResponseSchema = Type.Object({ play: PlaySchema, balanceCents: CentsSchema });
export type PlayResponse = Static<typeof PlayResponseSchema>;

/** POST /api/account/demo-reload: the demo balance after the reload (or after the first, for a retry). */
export const DemoReloadResponseSchema = Type.Object({ balanceCents: CentsSchema }, { additionalProperties: false });
export type DemoReloadResponse = Static<typeof DemoReloadResponseSchema>;

export const PlaysPageSchema = Type.Object({
  plays: Type.Array(PlaySchema),
  /** Pass as `before` for the next (older) page; null at the end. */
  nextBefore: NullableString,
});
export type PlaysPage = Static<typeof PlaysPageSchema>;

/** GET /api/client-config: what the browser client needs of the server's configuration. */
export const ClientConfigResponseSchema = Type.Object(
  {
    /** Origins of the portal pages allowed to frame the game and to talk to it (postMessage). */
    portalOrigins: Type.Array(Type.String()),
    /** Whether `POST /api/session {}` opens a demo player. */
    demoMode: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ClientConfigResponse = Static<typeof ClientConfigResponseSchema>;

const HashHex = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** How far a block is in its sale: waiting its turn, on sale, every unit sold, or taken off sale. */
export type BlockSaleStatus = 'queued' | 'open' | 'sold-out' | 'closed';

/** Which money a block is sold for: `real` to portal players, `demo` to demo players' play money. */
export type BlockPoolName = 'real' | 'demo';

/** One block as published: its commitment from before its first sale, its seed once nothing is left to sell. */
export const PublicBlockSchema = Type.Object({
  id: Type.String(),
  stakeCents: StakeOutSchema,
  pool: Type.Unsafe<BlockPoolName>({ type: 'string', enum: ['real', 'demo'] }),
  count: Type.Integer(),
  sold: Type.Integer(),
  status: Type.Unsafe<BlockSaleStatus>({ type: 'string', enum: ['queued', 'open', 'sold-out', 'closed'] }),
  root: HashHex,
  seedHash: HashHex,
  /** Hex; null while the block is queued or on sale. */
  seed: NullableString,
});
export type PublicBlock = Static<typeof PublicBlockSchema>;

/** GET /api/blocks: every block loaded, in load order. */
export const BlocksResponseSchema = Type.Object({ blocks: Type.Array(PublicBlockSchema) });
export type BlocksResponse = Static<typeof BlocksResponseSchema>;

const LogNumber = Type.String({ pattern: '^(?:0|[1-9][0-9]{0,14})$' });
const PublicKeyHex = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** A signed tree head of the transparency log: its size, root and time (Unix ms), signed with Ed25519. */
export const SignedTreeHeadSchema = Type.Object({
  treeSize: Type.Integer(),
  timestamp: Type.Integer(),
  rootHash: HashHex,
  signature: Type.String({ pattern: '^[0-9a-f]{128}$' }),
});
export type SignedTreeHeadResponse = Static<typeof SignedTreeHeadSchema>;

/** GET /api/plays/:playId/proof: the unit's leaf and its path to the block's root (docs/fairness.md). */
export const TicketProofSchema = Type.Object({
  format: Type.String(),
  playId: Type.String(),
  blockId: Type.String(),
  stakeCents: StakeOutSchema,
  count: Type.Integer(),
  position: Type.Integer(),
  wheels: Type.Array(PlayWheelSchema, { minItems: WHEELS_PER_UNIT, maxItems: WHEELS_PER_UNIT }),
  lotCents: CentsSchema,
  salt: Type.String(),
  leaf: HashHex,
  path: Type.Array(Type.Array(HashHex)),
  root: HashHex,
  seedHash: HashHex,
  /** When the unit was sold (the play's createdAt). */
  playedAt: Type.String(),
  /** The block's commitment in the transparency log, in a head signed before the sale; null: none (a block sold before the log). */
  log: Type.Union([
    Type.Object({
      index: Type.Integer(),
      entry: Type.String(),
      head: SignedTreeHeadSchema,
      inclusion: Type.Array(HashHex),
      publicKey: PublicKeyHex,
    }),
    Type.Null(),
  ]),
});
export type TicketProofResponse = Static<typeof TicketProofSchema>;

// ---------------------------------------------------------------- the transparency log (docs/fairness.md)

/** GET /api/transparency/key: the key that signs the log's heads. */
export const TransparencyKeySchema = Type.Object({
  algorithm: Type.Literal('Ed25519'),
  /** The 32-byte public key (RFC 8032), hex. */
  publicKey: PublicKeyHex,
  /** The same key as a PEM SubjectPublicKeyInfo (for openssl). */
  pem: Type.String(),
});
export type TransparencyKeyResponse = Static<typeof TransparencyKeySchema>;

/** The most entries one GET /api/transparency/entries answers. */
export const MAX_LOG_ENTRIES = 1000;

/** GET /api/transparency/entries: entries start … end (inclusive), at most MAX_LOG_ENTRIES of them. */
export const LogEntriesResponseSchema = Type.Object({
  entries: Type.Array(Type.Object({ index: Type.Integer(), data: Type.String() })),
});
export type LogEntriesResponse = Static<typeof LogEntriesResponseSchema>;

/** GET /api/transparency/proof: the inclusion proof of entry `index` in the tree of `size` entries. */
export const LogInclusionResponseSchema = Type.Object({
  index: Type.Integer(),
  treeSize: Type.Integer(),
  inclusion: Type.Array(HashHex),
});
export type LogInclusionResponse = Static<typeof LogInclusionResponseSchema>;

/** GET /api/transparency/consistency: the consistency proof between the trees of `first` and `second` entries. */
export const LogConsistencyResponseSchema = Type.Object({
  first: Type.Integer(),
  second: Type.Integer(),
  consistency: Type.Array(HashHex),
});
export type LogConsistencyResponse = Static<typeof LogConsistencyResponseSchema>;

// ---------------------------------------------------------------- requests (unknown fields refused)

/** A query string, params or body with nothing in it. */
export const NoQuerySchema = Type.Object({}, { additionalProperties: false });
/** Routes that take no body still declare it: nothing, or an empty object. */
export const EmptyBodySchema = Type.Object({}, { additionalProperties: false, maxProperties: 0 });

/** POST /api/session: `{}` for a demo player, or the portal's launch token. */
export const SessionRequestSchema = Type.Object(
  { launchToken: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })) },
  { additionalProperties: false },
);
export type SessionRequest = Static<typeof SessionRequestSchema>;

/** POST /api/plays: the client makes the playId (any UUID) and retries with the same one. */
export const PlayRequestSchema = Type.Object(
  { stakeCents: StakeSchema, playId: Type.String({ pattern: UUID_PATTERN }) },
  { additionalProperties: false },
);
export type PlayRequest = Static<typeof PlayRequestSchema>;

/**
 * POST /api/account/demo-reload (« Recharger la démo »): the client makes the reloadId (any
 * UUID) and retries with the same one, which puts the play money back once at most.
 */
export const DemoReloadRequestSchema = Type.Object(
  { reloadId: Type.String({ pattern: UUID_PATTERN }) },
  { additionalProperties: false },
);
export type DemoReloadRequest = Static<typeof DemoReloadRequestSchema>;

/** GET /api/plays: `limit` (1–100, default 20) and `before` (a playId of a previous page). */
export const PlaysQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$' })),
    before: Type.Optional(Type.String({ pattern: UUID_PATTERN })),
  },
  { additionalProperties: false },
);
export type PlaysQuery = Static<typeof PlaysQuerySchema>;

export const PlayIdParamsSchema = Type.Object(
  { playId: Type.String({ pattern: UUID_PATTERN }) },
  { additionalProperties: false },
);
export type PlayIdParams = Static<typeof PlayIdParamsSchema>;

export const LogEntriesQuerySchema = Type.Object({ start: LogNumber, end: LogNumber }, { additionalProperties: false });
export type LogEntriesQuery = Static<typeof LogEntriesQuerySchema>;
export const LogInclusionQuerySchema = Type.Object(
  { index: LogNumber, size: LogNumber },
  { additionalProperties: false },
);
export type LogInclusionQuery = Static<typeof LogInclusionQuerySchema>;
export const LogConsistencyQuerySchema = Type.Object(
  { first: LogNumber, second: LogNumber },
  { additionalProperties: false },
);
export type LogConsistencyQuery = Static<typeof LogConsistencyQuerySchema>;

/** POST /api/plays/:playId/progress. */
export const ProgressRequestSchema = Type.Object({ launched: LaunchedSchema }, { additionalProperties: false });
export type ProgressRequest = Static<typeof ProgressRequestSchema>;

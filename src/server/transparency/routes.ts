import { createPublicKey } from 'node:crypto';
import {
  LogConsistencyQuerySchema,
  LogConsistencyResponseSchema,
  LogEntriesQuerySchema,
  LogEntriesResponseSchema,
  LogInclusionQuerySchema,
  LogInclusionResponseSchema,
  MAX_LOG_ENTRIES,
  NoQuerySchema,
  SignedTreeHeadSchema,
  TransparencyKeySchema,
  type LogConsistencyResponse,
  type LogEntriesResponse,
  type LogInclusionResponse,
  type SignedTreeHeadResponse,
  type TransparencyKeyResponse,
} from '../../contract/api.ts';
import type { ApiServer } from '../http/apiServer.ts';
import { ApiError } from '../http/errors.ts';
import { withErrors } from '../http/schemas.ts';
import type { TransparencyLog } from './transparencyLog.ts';

// An Ed25519 SubjectPublicKeyInfo is this DER prefix and the 32-byte key (RFC 8410).
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function publicKeyPem(publicKey: string): string {
  const der = Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKey, 'hex')]);
  return createPublicKey({ key: der, format: 'der', type: 'spki' }).export({ format: 'pem', type: 'spki' }) as string;
}

/**
 * GET /api/transparency/*, for anyone (no session), as RFC 9162's log API: the key, the
 * newest signed head, entries, inclusion and consistency proofs. Sizes are bounded by the
 * newest head's: what is not in a signed head is not answered for.
 */
export function registerTransparencyRoutes(app: ApiServer, log: TransparencyLog): void {
  const key: TransparencyKeyResponse = {
    algorithm: 'Ed25519',
    publicKey: log.publicKey,
    pem: publicKeyPem(log.publicKey),
  };
  const treeSize = async () => (await log.latestHead()).treeSize;
  const refuse = (reason: string) => new ApiError('INVALID_INPUT', reason);

  app.get(
    '/api/transparency/key',
    { schema: { querystring: NoQuerySchema, response: withErrors(TransparencyKeySchema, 400, 429) } },
    async (): Promise<TransparencyKeyResponse> => key,
  );

  app.get(
    '/api/transparency/head',
    { schema: { querystring: NoQuerySchema, response: withErrors(SignedTreeHeadSchema, 400, 429) } },
    async (): Promise<SignedTreeHeadResponse> => log.latestHead(),
  );

  app.get(
    '/api/transparency/entries',
    { schema: { querystring: LogEntriesQuerySchema, response: withErrors(LogEntriesResponseSchema, 400, 429) } },
    async (request): Promise<LogEntriesResponse> => {
      const start = Number(request.query.start);
      const end = Number(request.query.end);
      const size = await treeSize();
      if (end < start) throw refuse('end must not be below start');
      if (end >= size) throw refuse(`the log's newest head holds ${size} entries (0–${size - 1})`);
      const last = Math.min(end, start + MAX_LOG_ENTRIES - 1);
      const entries = await log.entries(start, last + 1);
      return { entries: entries.map(({ index, data }) => ({ index, data })) };
    },
  );

  app.get(
    '/api/transparency/proof',
    { schema: { querystring: LogInclusionQuerySchema, response: withErrors(LogInclusionResponseSchema, 400, 429) } },
    async (request): Promise<LogInclusionResponse> => {
      const index = Number(request.query.index);
      const size = Number(request.query.size);
      if (size > (await treeSize())) throw refuse('size is larger than the newest signed head');
      if (index >= size) throw refuse('index must be below size');
      return { index, treeSize: size, inclusion: await log.inclusion(index, size) };
    },
  );

  app.get(
    '/api/transparency/consistency',
    {
      schema: { querystring: LogConsistencyQuerySchema, response: withErrors(LogConsistencyResponseSchema, 400, 429) },
    },
    async (request): Promise<LogConsistencyResponse> => {
      const first = Number(request.query.first);
      const second = Number(request.query.second);
      if (second > (await treeSize())) throw refuse('second is larger than the newest signed head');
      if (first > second) throw refuse('first must not be above second');
      return { first, second, consistency: await log.consistency(first, second) };
    },
  );
}

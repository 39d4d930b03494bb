import type {
  BlocksResponse,
  SignedTreeHeadResponse,
  TicketProofResponse,
  TransparencyKeyResponse,
} from '../../contract/api.ts';
import { requestJson, type ApiResult, type HttpOptions } from './http.ts';

/** What the « Vérifier ce ticket » check asks the server: a play's proof, and the published blocks. */
export interface ProofApi {
  proof(token: string, playId: string): Promise<ApiResult<TicketProofResponse>>;
  blocks(): Promise<ApiResult<BlocksResponse>>;
  /** The key that signs the transparency log's heads. */
  transparencyKey(): Promise<ApiResult<TransparencyKeyResponse>>;
  /** The transparency log's newest signed head. */
  transparencyHead(): Promise<ApiResult<SignedTreeHeadResponse>>;
}

/**
 * The first GET /api/blocks after a server starts computes every block's commitment (CPU
 * seconds each), far longer than a play may take: a check waits for it.
 */
export const PROOF_TIMEOUT_MS = 60_000;

export function createProofApi(given: HttpOptions = {}): ProofApi {
  const options = { timeoutMs: PROOF_TIMEOUT_MS, ...given };
  return {
    proof: (token, playId) =>
      requestJson('GET', `/api/plays/${encodeURIComponent(playId)}/proof`, token, undefined, options),
    blocks: () => requestJson('GET', '/api/blocks', null, undefined, options),
    transparencyKey: () => requestJson('GET', '/api/transparency/key', null, undefined, options),
    transparencyHead: () => requestJson('GET', '/api/transparency/head', null, undefined, options),
  };
}

import type { BlocksResponse, TicketProofResponse } from '../../contract/api.ts';
import { requestJson, type ApiResult, type HttpOptions } from './http.ts';

/** What the « Vérifier ce ticket » check asks the server: a play's proof, and the published blocks. */
export interface ProofApi {
  proof(token: string, playId: string): Promise<ApiResult<TicketProofResponse>>;
  blocks(): Promise<ApiResult<BlocksResponse>>;
}

export function createProofApi(options: HttpOptions = {}): ProofApi {
  return {
    proof: (token, playId) =>
      requestJson('GET', `/api/plays/${encodeURIComponent(playId)}/proof`, token, undefined, options),
    blocks: () => requestJson('GET', '/api/blocks', null, undefined, options),
  };
}

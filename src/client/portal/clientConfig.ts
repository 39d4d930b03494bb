import type { ClientConfigResponse } from '../../contract/api.ts';
import { requestJson, type HttpOptions } from '../net/http.ts';

function isClientConfig(value: unknown): value is ClientConfigResponse {
  if (typeof value !== 'object' || value === null) return false;
  const { portalOrigins, demoMode } = value as Record<string, unknown>;
  return (
    Array.isArray(portalOrigins) && portalOrigins.every((o) => typeof o === 'string') && typeof demoMode === 'boolean'
  );
}

/**
 * The server's portal origins and demo mode (GET /api/client-config), or null when no
 * well-formed answer came after a few tries: then the game stays silent to its parent.
 */
export async function fetchClientConfig(
  options: HttpOptions & { tries?: number; pauseMs?: number } = {},
): Promise<ClientConfigResponse | null> {
  const tries = options.tries ?? 5;
  for (let attempt = 1; attempt <= tries; attempt++) {
    const result = await requestJson<unknown>('GET', '/api/client-config', null, undefined, options);
    if (result.ok) return isClientConfig(result.data) ? result.data : null;
    if (result.kind === 'server') return null;
    if (attempt < tries) await new Promise((r) => setTimeout(r, (options.pauseMs ?? 1_000) * attempt));
  }
  return null;
}

import { ERROR_CODES, type ErrorCode } from '../../contract/errorCodes.ts';

/** What a call to the API ends in: the data, the server's refusal, or no answer at all. */
export type ApiResult<T> =
  | { ok: true; data: T }
  | { ok: false; kind: 'server'; status: number; code: ErrorCode; message: string }
  | { ok: false; kind: 'network'; message: string };

export type ApiFailure = Exclude<ApiResult<never>, { ok: true }>;

export interface HttpOptions {
  /** Base URL of the API, '' for same origin. */
  baseUrl?: string;
  /** Milliseconds before a call counts as a network failure. */
  timeoutMs?: number;
  /** Injected for unit tests of the retry policy; the browser's fetch otherwise. */
  fetch?: typeof fetch;
}

export const DEFAULT_TIMEOUT_MS = 8_000;

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** One JSON request with a timeout; every failure becomes a typed result, never a throw. */
export async function requestJson<T>(
  method: 'GET' | 'POST',
  path: string,
  token: string | null,
  body: unknown,
  options: HttpOptions = {},
): Promise<ApiResult<T>> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await doFetch(`${options.baseUrl ?? ''}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
      cache: 'no-store',
    });
  } catch (error) {
    clearTimeout(timer);
    const aborted = controller.signal.aborted;
    return { ok: false, kind: 'network', message: aborted ? 'timeout' : String(error) };
  }
  try {
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (response.ok) return { ok: true, data: parsed as T };
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (error && isErrorCode(error.code)) {
      return {
        ok: false,
        kind: 'server',
        status: response.status,
        code: error.code,
        message: typeof error.message === 'string' ? error.message : '',
      };
    }
    // A proxy's error page or a 5xx without our error shape: the play may or may not exist.
    return { ok: false, kind: 'network', message: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, kind: 'network', message: String(error) };
  } finally {
    clearTimeout(timer);
  }
}

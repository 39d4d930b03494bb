import type {
  AccountResponse,
  DemoReloadResponse,
  Launched,
  PlayResponse,
  PlaysPage,
  SessionResponse,
} from '../../contract/api.ts';
import type { StakeCents } from '../../rules/stakes.ts';
import { requestJson, type ApiResult, type HttpOptions } from './http.ts';

/** The game server's API as plain typed functions; the token is the caller's to keep. */
export interface GameApi {
  openSession(launchToken?: string): Promise<ApiResult<SessionResponse>>;
  account(token: string): Promise<ApiResult<AccountResponse>>;
  /** « Jouer »: retried with the same playId while the network fails, so one debit at most. */
  play(token: string, stakeCents: StakeCents, playId: string): Promise<ApiResult<PlayResponse>>;
  /** What the player has seen; the answer's body is not needed. */
  progress(token: string, playId: string, launched: Launched): Promise<ApiResult<unknown>>;
  finish(token: string, playId: string): Promise<ApiResult<unknown>>;
  plays(token: string, limit: number, before?: string): Promise<ApiResult<PlaysPage>>;
  /** « Recharger la démo »: retried with the same reloadId while the network fails, so one reload at most. */
  reloadDemo(token: string, reloadId: string): Promise<ApiResult<DemoReloadResponse>>;
}

export interface GameApiOptions extends HttpOptions {
  /** Pauses between attempts of « Jouer » after a network failure (ms); its length is the retry count. */
  playRetryDelaysMs?: readonly number[];
  /** Injected for tests; setTimeout otherwise. */
  sleep?: (ms: number) => Promise<void>;
}

export const PLAY_RETRY_DELAYS_MS = [300, 1_000, 2_500] as const;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createGameApi(options: GameApiOptions = {}): GameApi {
  const retryDelays = options.playRetryDelaysMs ?? PLAY_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? defaultSleep;
  const enc = encodeURIComponent;
  /** Sent again after each pause while no answer comes (the network failed); a server's answer is final. */
  const retried = async <T>(send: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> => {
    let result = await send();
    for (const delay of retryDelays) {
      if (result.ok || result.kind !== 'network') break;
      await sleep(delay);
      result = await send();
    }
    return result;
  };
  return {
    openSession: (launchToken) =>
      requestJson('POST', '/api/session', null, launchToken ? { launchToken } : {}, options),
    account: (token) => requestJson('GET', '/api/account', token, undefined, options),
    // Only a missing answer is retried: the server may have debited, and the same
    // playId makes it hand back that play instead of selling a second unit.
    play: (token, stakeCents, playId) =>
      retried(() => requestJson<PlayResponse>('POST', '/api/plays', token, { stakeCents, playId }, options)),
    // The same for a reload: the same reloadId never reloads twice.
    reloadDemo: (token, reloadId) =>
      retried(() => requestJson<DemoReloadResponse>('POST', '/api/account/demo-reload', token, { reloadId }, options)),
    progress: (token, playId, launched) =>
      requestJson('POST', `/api/plays/${enc(playId)}/progress`, token, { launched }, options),
    finish: (token, playId) => requestJson('POST', `/api/plays/${enc(playId)}/finish`, token, {}, options),
    plays: (token, limit, before) =>
      requestJson(
        'GET',
        `/api/plays?limit=${limit}${before ? `&before=${enc(before)}` : ''}`,
        token,
        undefined,
        options,
      ),
  };
}

/**
 * How the portal hands the game its player: a launch token signed by the portal, in the
 * iframe URL's fragment (`/#launchToken=…`), which browsers never send to a server, so
 * it stays out of access logs and Referer headers. `?launchToken=…` is read too, for
 * portals that cannot set a fragment; the fragment wins when both are there.
 */

/** Launch tokens are `base64url.base64url` (src/server/tokens.ts) and at most 2048 characters. */
const LAUNCH_TOKEN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
export const MAX_LAUNCH_TOKEN_LENGTH = 2048;

function pick(params: URLSearchParams): string | null {
  const value = params.get('launchToken');
  if (value === null || value.length > MAX_LAUNCH_TOKEN_LENGTH || !LAUNCH_TOKEN.test(value)) return null;
  return value;
}

/** The launch token in the page's URL, or null (then the game opens a demo session). */
export function readLaunchToken(location: Pick<Location, 'hash' | 'search'>): string | null {
  return pick(new URLSearchParams(location.hash.replace(/^#/, ''))) ?? pick(new URLSearchParams(location.search));
}

/** The launch this tab was opened with, kept for a reload (the URL no longer has it). */
const LAUNCH_KEY = 'spincake.launch';

/** The URL without its launch token (fragment and query), everything else kept. */
export function withoutLaunchToken(location: Pick<Location, 'pathname' | 'hash' | 'search'>): string {
  const search = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  search.delete('launchToken');
  hash.delete('launchToken');
  const query = search.toString();
  const fragment = hash.toString();
  return `${location.pathname}${query ? `?${query}` : ''}${fragment ? `#${fragment}` : ''}`;
}

export interface LaunchWindow {
  location: Pick<Location, 'pathname' | 'hash' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
  /** Whether this page load is a reload (Navigation Timing). */
  reloaded: boolean;
}

/**
 * Reads the launch token and takes it out of the URL at once (history.replaceState), so
 * that it never stays in the address, the history or a bookmark; the server accepts it
 * once anyway. A reload of the same tab finds the URL without it: the launch is kept in
 * sessionStorage (this tab only) so that the reload resumes the same player's session.
 */
export function takeLaunchToken(win: LaunchWindow): string | null {
  const token = readLaunchToken(win.location);
  if (token !== null || /[#?&]launchToken=/.test(`${win.location.search}${win.location.hash}`)) {
    win.history.replaceState(win.history.state, '', withoutLaunchToken(win.location));
  }
  if (token !== null) {
    win.sessionStorage.setItem(LAUNCH_KEY, token);
    return token;
  }
  if (!win.reloaded) return null;
  const kept = win.sessionStorage.getItem(LAUNCH_KEY);
  return kept !== null && kept.length <= MAX_LAUNCH_TOKEN_LENGTH && LAUNCH_TOKEN.test(kept) ? kept : null;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const SCOPED_PREFIX = 'spincake.portal.';

/**
 * The session the controller remembers belongs to the launch that opened it. Without
 * this, a session kept from an earlier visit (a demo player, or another portal player on
 * the same browser) would be reused and the new launch token ignored. With a launch
 * token, each remembered value is stored with that token's signature and read back only
 * for the same launch, so a reload resumes the round and a new launch opens its own
 * player. Without one, the storage is used as it is.
 */
export function launchScopedStorage(storage: KeyValueStorage, launchToken: string | null): KeyValueStorage {
  if (launchToken === null) return storage;
  const launch = launchToken.slice(launchToken.indexOf('.') + 1);
  const keyOf = (key: string) => `${SCOPED_PREFIX}${key}`;
  return {
    getItem(key) {
      const raw = storage.getItem(keyOf(key));
      if (raw === null) return null;
      try {
        const saved: unknown = JSON.parse(raw);
        if (typeof saved !== 'object' || saved === null) return null;
        const { launch: savedLaunch, value } = saved as { launch?: unknown; value?: unknown };
        return savedLaunch === launch && typeof value === 'string' ? value : null;
      } catch {
        return null;
      }
    },
    setItem(key, value) {
      storage.setItem(keyOf(key), JSON.stringify({ launch, value }));
    },
    removeItem(key) {
      storage.removeItem(keyOf(key));
    },
  };
}

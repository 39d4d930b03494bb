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

import { describe, expect, it } from 'vitest';
import { launchScopedStorage, readLaunchToken, takeLaunchToken } from './launch.ts';

const TOKEN = 'eyJwbGF5ZXJJZCI6ImFsaWNlIiwiZXhwIjoxfQ.c2lnbmF0dXJlLW9mLWFsaWNl';
const OTHER = 'eyJwbGF5ZXJJZCI6ImJvYiIsImV4cCI6MX0.c2lnbmF0dXJlLW9mLWJvYg';

describe('readLaunchToken', () => {
  it('reads the fragment first, then the query', () => {
    expect(readLaunchToken({ hash: `#launchToken=${TOKEN}`, search: '' })).toBe(TOKEN);
    expect(readLaunchToken({ hash: '', search: `?test=1&launchToken=${TOKEN}` })).toBe(TOKEN);
    expect(readLaunchToken({ hash: `#launchToken=${TOKEN}`, search: `?launchToken=${OTHER}` })).toBe(TOKEN);
    expect(readLaunchToken({ hash: `#lang=en&launchToken=${TOKEN}`, search: '?lang=en' })).toBe(TOKEN);
  });

  it('finds none in a plain URL or a malformed one', () => {
    expect(readLaunchToken({ hash: '', search: '' })).toBeNull();
    expect(readLaunchToken({ hash: '#launchToken=', search: '' })).toBeNull();
    expect(readLaunchToken({ hash: '#launchToken=<script>', search: '' })).toBeNull();
    expect(readLaunchToken({ hash: '#launchToken=a.b.c', search: '' })).toBeNull();
    expect(readLaunchToken({ hash: `#launchToken=${'a'.repeat(2048)}.b`, search: '' })).toBeNull();
  });
});

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('launchScopedStorage', () => {
  it('is the storage itself without a launch token', () => {
    const storage = memoryStorage();
    expect(launchScopedStorage(storage, null)).toBe(storage);
  });

  it('gives back a value only to the launch that stored it', () => {
    const storage = memoryStorage();
    storage.setItem('spincake.token', 'demo-session');
    const alice = launchScopedStorage(storage, TOKEN);
    expect(alice.getItem('spincake.token')).toBeNull();
    alice.setItem('spincake.token', 'alice-session');
    expect(launchScopedStorage(storage, TOKEN).getItem('spincake.token')).toBe('alice-session');
    expect(launchScopedStorage(storage, OTHER).getItem('spincake.token')).toBeNull();
    // The demo player's own entry is untouched.
    expect(storage.getItem('spincake.token')).toBe('demo-session');
    alice.removeItem('spincake.token');
    expect(alice.getItem('spincake.token')).toBeNull();
  });

  it('treats a damaged entry as nothing stored', () => {
    const storage = memoryStorage();
    storage.setItem('spincake.portal.spincake.token', '{not json');
    expect(launchScopedStorage(storage, TOKEN).getItem('spincake.token')).toBeNull();
    storage.setItem('spincake.portal.spincake.token', JSON.stringify({ launch: 'x', value: 1 }));
    expect(launchScopedStorage(storage, TOKEN).getItem('spincake.token')).toBeNull();
  });
});

describe('taking the launch token out of the URL', () => {
  function page(url: string, reloaded = false, kept: Record<string, string> = {}) {
    const parsed = new URL(url, 'https://game.example');
    const calls: string[] = [];
    const storage = new Map(Object.entries(kept));
    return {
      calls,
      storage,
      win: {
        location: { pathname: parsed.pathname, search: parsed.search, hash: parsed.hash },
        history: {
          state: null,
          replaceState: (_s: unknown, _t: string, to?: string | URL | null) => calls.push(String(to)),
        },
        sessionStorage: {
          getItem: (k: string) => storage.get(k) ?? null,
          setItem: (k: string, v: string) => storage.set(k, v),
        },
        reloaded,
      },
    };
  }

  it('reads it, then replaces the URL at once without it, every other parameter kept', () => {
    const p = page(`/?lang=en&test=1#launchToken=${TOKEN}&x=1`);
    expect(takeLaunchToken(p.win)).toBe(TOKEN);
    expect(p.calls).toEqual(['/?lang=en&test=1#x=1']);
    const q = page(`/?launchToken=${TOKEN}`);
    expect(takeLaunchToken(q.win)).toBe(TOKEN);
    expect(q.calls).toEqual(['/']);
    // A malformed one is not kept in the URL either.
    const bad = page('/#launchToken=<script>');
    expect(takeLaunchToken(bad.win)).toBeNull();
    expect(bad.calls).toEqual(['/']);
    // Nothing to take: the URL is left alone.
    const none = page('/?lang=en');
    expect(takeLaunchToken(none.win)).toBeNull();
    expect(none.calls).toEqual([]);
  });

  it('a reload of the same tab resumes that launch; a new visit without a token is a demo', () => {
    const first = page(`/#launchToken=${TOKEN}`);
    takeLaunchToken(first.win);
    const kept = Object.fromEntries(first.storage);
    expect(takeLaunchToken(page('/', true, kept).win)).toBe(TOKEN);
    expect(takeLaunchToken(page('/', false, kept).win)).toBeNull();
    expect(takeLaunchToken(page('/', true).win)).toBeNull();
  });
});

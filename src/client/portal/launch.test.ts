import { describe, expect, it } from 'vitest';
import { launchScopedStorage, readLaunchToken } from './launch.ts';

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

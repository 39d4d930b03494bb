import { describe, expect, it } from 'vitest';
import type { GameApi } from '../net/api.ts';
import { readPageOptions } from '../pageOptions.ts';
import { PortalLink } from './index.ts';

const TOKEN = 'eyJwbGF5ZXJJZCI6ImFsaWNlIiwiZXhwIjoxfQ.c2lnbmF0dXJlLW9mLWFsaWNl';

/** A top-level page (not framed): the link reads the token and changes nothing else. */
function topWindow(hash: string) {
  const win = { location: { hash, search: '' } } as unknown as Window & { parent: unknown };
  win.parent = win;
  return win;
}

class Controls {
  #shown: (number | null)[] = [];
  setBalance(cents: number | null): void {
    this.#shown.push(cents);
  }
  get shown(): (number | null)[] {
    return this.#shown;
  }
}

describe('PortalLink', () => {
  it('keeps the launch token of the page', () => {
    const linkFor = (hash: string) => {
      const win = topWindow(hash);
      return new PortalLink(readPageOptions(win.location).launchToken, win);
    };
    expect(linkFor(`#launchToken=${TOKEN}`).launchToken).toBe(TOKEN);
    expect(linkFor('').launchToken).toBeNull();
  });

  it('watches the controls without breaking their private state or getters', () => {
    const controls = new Controls();
    const watched = new PortalLink(null, topWindow('')).watchControls(controls);
    watched.setBalance(10_000);
    watched.setBalance(null);
    expect(watched.shown).toEqual([10_000, null]);
    expect(controls.shown).toEqual([10_000, null]);
  });

  it('hands back the API’s answers unchanged', async () => {
    const failure = { ok: false, kind: 'server', status: 401, code: 'NO_SESSION', message: 'expired' } as const;
    const calls: unknown[] = [];
    const api = {
      openSession: async (launchToken?: string) => (calls.push(launchToken), failure),
      play: async (...args: unknown[]) => (calls.push(args), failure),
    } as unknown as GameApi;
    const watched = new PortalLink(null, topWindow('')).watchApi(api);
    expect(await watched.openSession(TOKEN)).toBe(failure);
    expect(await watched.play('t', 100, 'p')).toBe(failure);
    expect(calls).toEqual([TOKEN, ['t', 100, 'p']]);
  });

  it('opens no bridge when the game is not framed', async () => {
    const link = new PortalLink(null, topWindow(''));
    await link.connect({ audio: { muted: false }, toggleMute: () => undefined, host: {} as HTMLElement });
    await expect(link.ready()).resolves.toBeUndefined();
  });
});

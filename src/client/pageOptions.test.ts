import { describe, expect, it } from 'vitest';
import { readPageOptions } from './pageOptions.ts';

const TOKEN = 'eyJwbGF5ZXJJZCI6ImFsaWNlIiwiZXhwIjoxfQ.c2lnbmF0dXJlLW9mLWFsaWNl';

describe('readPageOptions', () => {
  it('gives the plain page French, no test mode, the renderer left to the game and no launch', () => {
    expect(readPageOptions({ search: '', hash: '' })).toEqual({
      locale: 'fr',
      testMode: false,
      seed: 1,
      renderer: null,
      launchToken: null,
      limitsUrl: null,
    });
  });

  it('reads each option of the query', () => {
    const options = readPageOptions({
      search: `?lang=en&test=1&seed=7&renderer=canvas`,
      hash: `#launchToken=${TOKEN}`,
    });
    expect(options).toEqual({
      locale: 'en',
      testMode: true,
      seed: 7,
      renderer: 'canvas',
      launchToken: TOKEN,
      limitsUrl: null,
    });
    expect(readPageOptions({ search: '?renderer=webgl', hash: '' }).renderer).toBe('webgl');
  });

  it('ignores values it does not know', () => {
    const options = readPageOptions({ search: '?lang=de&test=yes&renderer=vulkan', hash: '' });
    expect(options.locale).toBe('fr');
    expect(options.testMode).toBe(false);
    expect(options.renderer).toBeNull();
  });

  it('takes the portal’s limits page only as an http(s) link', () => {
    const limits = (q: string) => readPageOptions({ search: q, hash: '' }).limitsUrl;
    expect(limits('?limits=https%3A%2F%2Fportal.example%2Flimites')).toBe('https://portal.example/limites');
    expect(limits('?limits=javascript%3Aalert(1)')).toBeNull();
    expect(limits('?limits=%2Frelative')).toBeNull();
    expect(limits('')).toBeNull();
  });
});

import type { Locale } from '../rules/money.ts';
import { readLaunchToken } from './portal/launch.ts';

export type RendererChoice = 'webgl' | 'canvas';

/** What the page's URL asks of the game, read once at start-up. */
export interface PageOptions {
  /** `?lang=en`: English; French otherwise. */
  locale: Locale;
  /** `?test=1`: the test API (testMode/) and a seeded random, for the browser tests. */
  testMode: boolean;
  /** `?seed=`: the test mode's seed, so spins and sprinkles fall the same way each run. */
  seed: number;
  /** `?renderer=webgl|canvas` forces Pixi's backend (benchmarks, tests); null lets the game choose. */
  renderer: RendererChoice | null;
  /** The portal's launch token (see portal/launch.ts), or null for a demo session. */
  launchToken: string | null;
}

export function readPageOptions(location: Pick<Location, 'hash' | 'search'>): PageOptions {
  const params = new URLSearchParams(location.search);
  const renderer = params.get('renderer');
  return {
    locale: params.get('lang') === 'en' ? 'en' : 'fr',
    testMode: params.get('test') === '1',
    seed: Number(params.get('seed') ?? 1),
    renderer: renderer === 'webgl' || renderer === 'canvas' ? renderer : null,
    launchToken: readLaunchToken(location),
  };
}

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
  /** `?limits=URL`: the portal's page for gaming limits and self-exclusion (http(s) only), or null. */
  limitsUrl: string | null;
}

/** An absolute http(s) URL, or null: nothing else may become a link on the page. */
export function safeLink(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
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
    limitsUrl: safeLink(params.get('limits')),
  };
}

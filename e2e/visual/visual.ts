import fs from 'node:fs';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { test as base, expect, type Page, type PageScreenshotOptions, type TestInfo } from '@playwright/test';
import type { PairKey } from '../../src/rules/tables.ts';
import { startTestServer, type TestServer } from '../../src/server/testing/harness.ts';
import { stake, token } from '../game.ts';

/**
 * The visual suite's own real server, in test mode, started inside the Playwright
 * worker: one per worker, and a worker runs one project only, so what a test does to
 * the server (a sold-out stake, closed sales) never reaches another project's
 * pictures, nor the functional e2e specs' shared server (whose units spec sells a
 * stake out). Its clock stands still, so the history's dates are the same every run.
 */
export const FROZEN_SERVER_TIME = new Date('2026-06-21T16:30:00Z');

async function startVisualServer(): Promise<TestServer> {
  const server = await startTestServer({
    SPINCAKE_TEST_MODE: '1',
    // The built client (`vite build`); another folder can be named for a private build.
    CLIENT_DIR: path.resolve(process.env.SPINCAKE_CLIENT_DIR ?? 'dist'),
    RATE_LIMIT_PER_MINUTE: '100000',
    SESSION_CREATE_PER_MINUTE: '100000',
  });
  server.context.clock = () => FROZEN_SERVER_TIME;
  return server;
}

export interface VisualFixtures {
  /** A throw-away server for this test alone (for states that would leak: sold out, sales closed). */
  privateServer: boolean;
  server: TestServer;
}

export const test = base.extend<VisualFixtures, { sharedServer: TestServer }>({
  sharedServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for from this pattern.
    async ({}, use) => {
      const server = await startVisualServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  privateServer: [false, { option: true }],
  server: async ({ privateServer, sharedServer }, use) => {
    if (!privateServer) {
      sharedServer.context.clock = () => FROZEN_SERVER_TIME;
      await use(sharedServer);
      return;
    }
    const server = await startVisualServer();
    await use(server);
    await server.close();
  },
  baseURL: async ({ server }, use) => use(server.url),
  // A failing picture comes with its expected, actual and diff images; a trace of every
  // test would double the suite's time.
  trace: ['off', { scope: 'worker' }],
  // Dates and amounts written the same way on every machine.
  locale: 'fr-FR',
  timezoneId: 'Europe/Paris',
});

export { expect };

/**
 * How far a picture may be from its baseline: `threshold` is the per-pixel colour
 * distance (0–1) under which two pixels count as equal, `maxDiffPixels` how many may
 * differ. Tight on purpose: a changed label, a moved segment or a changed colour
 * must fail (see breakage.spec.ts, which proves it with these same numbers).
 */
export const THRESHOLD = 0.1;
export function maxDiffPixels(info: TestInfo): number {
  return info.project.name === 'desktop' ? 50 : 25;
}

/** The same capture settings for the baselines and for the breakage check. */
export const CAPTURE: PageScreenshotOptions = { animations: 'disabled', caret: 'hide', scale: 'css' };

/** Opens the game in test mode (canvas renderer everywhere, seeded spins) and stops its clock. */
export async function openTable(page: Page, query = ''): Promise<void> {
  await page.goto(`/?test=1&seed=7&renderer=canvas${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.freeze());
}

/** The player's next unit shows this pair, laid out the same way every run (fixed seed). */
export async function seededFixture(page: Page, pair: PairKey): Promise<void> {
  const response = await page.request.post('/api/test/fixture', {
    data: { pair, seed: `visual-${pair}` },
    headers: { authorization: `Bearer ${await token(page)}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Waits for the bundled font, then compares the page with its committed baseline. */
export async function expectPicture(page: Page, name: string, options: { mask?: ReturnType<Page['locator']>[] } = {}) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await expect(page).toHaveScreenshot(`${name}.png`, {
    ...CAPTURE,
    threshold: THRESHOLD,
    maxDiffPixels: maxDiffPixels(test.info()),
    mask: options.mask,
  });
}

/** The idle table with a stake chosen (a state of its own, and the breakage check's base). */
export async function idleWithStake(page: Page, euros: number): Promise<void> {
  await openTable(page);
  await stake(page, euros).click();
  await expect(stake(page, euros)).toHaveAttribute('aria-pressed', 'true');
}

/** Where states.spec.ts keeps the committed baseline `name` of this project. */
export function baselinePath(info: TestInfo, name: string): string {
  return path.join(
    path.dirname(info.file),
    'states.spec.ts-snapshots',
    `${name}-${info.project.name}-${process.platform}.png`,
  );
}

/**
 * How many pixels of the page now differ from a committed baseline, counted the way
 * toHaveScreenshot counts them (pixelmatch at THRESHOLD, on the same capture), so a
 * test can show that a broken picture would fail the suite.
 */
export async function pixelsOffBaseline(page: Page, baseline: string): Promise<number> {
  if (!fs.existsSync(baseline)) throw new Error(`${baseline} is missing: run npm run test:visual:update`);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const expected = PNG.sync.read(fs.readFileSync(baseline));
  const actual = PNG.sync.read(await page.screenshot(CAPTURE));
  expect([actual.width, actual.height], 'picture size').toEqual([expected.width, expected.height]);
  return pixelmatch(expected.data, actual.data, undefined, expected.width, expected.height, { threshold: THRESHOLD });
}

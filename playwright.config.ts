import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';

/**
 * Playwright's own Chromium where it is installed; Debian's `chromium` otherwise
 * (Playwright cannot download its browser on our CI machines).
 */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const useDebianChromium = !process.env.PLAYWRIGHT_OWN_BROWSER && existsSync(DEBIAN_CHROMIUM);
const launchOptions = useDebianChromium
  ? {
      executablePath: DEBIAN_CHROMIUM,
      args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    }
  : {};

// The real server in test mode, on a free-ish port, with a fresh SQLite database per
// run. Set once here; worker processes inherit the environment, so they agree.
process.env.SPINCAKE_E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
process.env.SPINCAKE_E2E_DATA ??= mkdtempSync(join(tmpdir(), 'spincake-e2e-'));
const port = Number(process.env.SPINCAKE_E2E_PORT);
const UNLIMITED_SESSIONS = { SESSION_CREATE_PER_MINUTE: '100000', SESSION_CREATE_TOTAL_PER_MINUTE: '1000000' };
const baseURL = `http://127.0.0.1:${port}`;

/**
 * Specs that change what every page of the shared server sees (its sales window, a stake's
 * blocks closed): run alone, once everything else is done. Every other spec keeps to its own
 * players, or to servers of its own (the visual states, the portal), so two of them at a time
 * share the server safely.
 */
const SHARED_STATE_SPECS = [/errors\.spec\.ts/, /units\.spec\.ts/];

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  // Two at a time on CI's two cores: most of a spec's time is the game's own animations
  // played in real time, so a second browser uses what the first leaves idle.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never' }]],
  use: { launchOptions, baseURL, trace: 'retain-on-failure' },
  webServer: {
    // The Node that runs Playwright runs the server too, not whichever `node` is first on PATH.
    command: `"${process.execPath}" --import tsx src/server/main.ts`,
    url: `${baseURL}/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: process.env.SPINCAKE_E2E_DATA,
      SPINCAKE_TEST_MODE: '1',
      // Every page of every spec opens a session from this one address.
      ...UNLIMITED_SESSIONS,
    },
  },
  projects: [
    {
      name: 'desktop',
      testIgnore: SHARED_STATE_SPECS,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 720 } },
    },
    {
      name: 'mobile-portrait',
      testMatch: [/layout\.spec\.ts/, /visual\/.*\.spec\.ts/],
      use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
    },
    {
      name: 'mobile-landscape',
      testMatch: [/layout\.spec\.ts/, /visual\/.*\.spec\.ts/],
      use: { viewport: { width: 844, height: 390 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
    },
    {
      name: 'desktop-shared-state',
      testMatch: SHARED_STATE_SPECS,
      dependencies: ['desktop', 'mobile-portrait', 'mobile-landscape'],
      workers: 1,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 720 } },
    },
  ],
});

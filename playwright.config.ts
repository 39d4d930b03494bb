import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

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

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list'], ['html', { open: 'never' }]],
  use: { launchOptions, trace: 'retain-on-failure' },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 720 } } }],
});

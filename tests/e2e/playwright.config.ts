// Playwright (run with -c tests/e2e/playwright.config.ts): Debian's Chromium against the real built app and server (started by tests/e2e/global-setup.ts).
import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { allow } from './limits.ts';

// Debian's headless shell when installed (.ci/run installs it): the same Chromium without the browser's own window to
// draw, so two browsers and two servers share two cores with less to do. Otherwise the browser itself.
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const browser = () => (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './global-setup.ts',
  // Two files at a time, each worker on its own server (fixtures.ts); E2E_WORKERS=1 runs them one after another.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  // The same waits on CI, given longer before they fail there (limits.ts).
  timeout: allow(60_000),
  expect: { timeout: process.env.CI ? 20_000 : 10_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
    viewport: { width: 1366, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? browser(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});

import { defineConfig } from '@playwright/test'
import type { HostOptions } from './e2e/fixtures'

/**
 * End-to-end tests: the real app (`sous serve` + the core + a real PTY + the real SDK talking to
 * the scripted model server) driven in Debian's Chromium. The same specs run in Electron where
 * its binary is installed; elsewhere that project skips itself with a message.
 * The build output must exist (`npm test` builds first; `npm run build` otherwise).
 */
export default defineConfig<HostOptions>({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // One worker: two cores share Chromium, the app and the model server; parallel runs only flake.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // One retry in CI only: a real browser on a busy 2-core machine can miss a frame now and then.
  // A test that passes on retry is still reported as flaky, so it stays visible and gets fixed.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        host: 'browser',
        browserName: 'chromium',
        launchOptions: {
          // Debian's Chromium; never a Playwright browser download.
          executablePath: '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
        },
      },
    },
    {
      name: 'electron',
      use: { host: 'electron' },
    },
  ],
})

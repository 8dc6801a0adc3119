import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from './e2e/browser';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // One retry in CI: a 2-core machine shared with the gateway and Chromium makes timing-heavy browser tests
  // occasionally slow; a test broken for real still fails twice.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS },
    trace: 'off',
    screenshot: 'off',
  },
});

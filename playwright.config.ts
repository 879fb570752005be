import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium.ts';

/**
 * Browser journeys against the real app: `npm start` (builds dist/web when stale, migrates a fresh
 * embedded database, serves SPA + API) on port 5055, driven by Debian's Chromium.
 * Nothing downloads a browser (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1).
 */
const PORT = Number(process.env.E2E_PORT ?? 5055);
// One fresh data directory per run; workers inherit it through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'formwork-e2e-'));
// The server's log, where journeys find the verification link of an ADMIN_EMAILS address (no mail server).
process.env.E2E_SERVER_LOG ??= `${process.env.E2E_DATA_DIR}.log`;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  // A journey spends most of its time waiting on the browser and the server, so two files at a
  // time take about a third less time on two cores than one did; the journeys in a file keep
  // their order. A journey that changes what every other one sees has its own server (own-server.ts).
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // A hang guard, not a speed target (bench:* measures speed): the longest journeys take about 35 s
  // on this two-core machine when it is quiet, and more than twice that when the host is busy.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    // Recording a trace (a screencast and a DOM snapshot per action) took a fifth of the journeys'
    // processor time, kept only for a failure. CI leaves nothing but its log behind, so it records none.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `npm start > "${process.env.E2E_SERVER_LOG}"`,
    url: `http://localhost:${PORT}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_EMAILS: 'admin@e2e.formwork.test',
      // The builder journey serves an image from 127.0.0.2 to add by its address.
      IMAGE_FETCH_ALLOWED_IPS: '127.0.0.2',
      // Every journey signs up its own accounts from this one machine.
      SIGN_UPS_PER_IP_PER_HOUR: '1000',
    },
  },
});

import { defineConfig } from '@playwright/test';

// E2E runs against `next start` on its own port and its own fresh database.
// `next build` must have run first (npm test does it).
const PORT = Number(process.env.E2E_PORT ?? 3100);
const E2E_DB = 'file:./prisma/e2e.db';

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/playwright',
  workers: 1,
  fullyParallel: false,
  reporter: 'list',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1440, height: 1000 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `rm -f prisma/e2e.db prisma/e2e.db-journal && npx prisma migrate deploy && npx next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}`,
    env: {
      DATABASE_URL: E2E_DB,
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});

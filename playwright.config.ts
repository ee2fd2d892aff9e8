import { defineConfig } from '@playwright/test';

// E2E runs against `next start` and a fresh database of its own: three of each, one per project,
// so three journeys run side by side without seeing each other's episodes (the inspector's lists
// see every episode in their database). One journey at a time left most of the two cores idle
// (≈ 0.4 core busy: the browser and the server wait on each other).
// `next build` must have run first (npm test does it).
const PORT = Number(process.env.E2E_PORT ?? 3100); // and the next two ports

// The spec files of projects a and b (c runs every other file), each about a third of the time.
// Each group is a subset of an earlier two-project split, in the same order: a spec sees only the
// episodes and runs made by specs before it in its group (bundle.spec and models.spec each start
// the first batch run of their database, and wait for "finished").
const A = ['envs.spec.ts', 'inspector.spec.ts', 'cart.spec.ts', 'curriculum.spec.ts'];
const B = ['bundle.spec.ts', 'envs-orders.spec.ts', 'curriculum-groups.spec.ts', 'curriculum-models.spec.ts'];
const url = (port: number) => `http://127.0.0.1:${port}`;

const server = (name: string, port: number) => ({
  name: `server ${name}`,
  // no `prisma migrate deploy`: next start migrates the empty database itself (server/lib/database-ready.ts)
  command: `rm -f prisma/e2e-${name}.db* && npx next start -p ${port} -H 127.0.0.1`,
  url: url(port),
  env: {
    DATABASE_URL: `file:./prisma/e2e-${name}.db`,
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    NEXT_TELEMETRY_DISABLED: '1',
  },
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/playwright',
  // one worker per project (its server and database), the three projects at once
  workers: 3,
  fullyParallel: false,
  reporter: 'list',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  use: {
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
  projects: [
    { name: 'a', workers: 1, testMatch: A, use: { baseURL: url(PORT) } },
    { name: 'b', workers: 1, testMatch: B, use: { baseURL: url(PORT + 1) } },
    { name: 'c', workers: 1, testIgnore: [...A, ...B], use: { baseURL: url(PORT + 2) } },
  ],
  webServer: [server('a', PORT), server('b', PORT + 1), server('c', PORT + 2)],
});

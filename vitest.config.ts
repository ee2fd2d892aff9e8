import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'lib/**/*.test.ts', 'components/**/*.test.ts'],
    environment: 'node',
    // one PostgreSQL server for the run, started by the first test file that needs one
    globalSetup: ['server/env-server/test/postgres-global.ts'],
    // Vitest's default leaves one core idle (cores − 1): on this 2-core machine that ran every file
    // in one worker, and the suite took twice its CPU time.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    // Suites that start servers (serve:env, PostgreSQL, the agent server) do it in beforeAll: slow under load.
    hookTimeout: 120_000,
  },
});

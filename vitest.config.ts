import { availableParallelism } from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './vitest.sequencer';

const ENGINE = 'server/engine/**/*.test.ts';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    environment: 'node',
    // Vitest's default leaves one core idle (cores − 1): on this 2-core machine that ran every file
    // in one worker, and the suite took twice its CPU time.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    // Suites that start servers (serve:env, PostgreSQL, the agent server) do it in beforeAll: slow under load.
    hookTimeout: 120_000,
    // longest files first (vitest.sequencer.ts): a fresh CI machine has no durations cached
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'engine',
          include: [ENGINE],
          // The engine is pure and deterministic (no globals, mocks or env): its files share a worker's
          // module cache instead of importing the engine (and building the 20k test catalog) once per
          // file. That halved the engine files' CPU time (docs/testing.md).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'app',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'lib/**/*.test.ts', 'components/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ENGINE],
          // one PostgreSQL server for the run, started by the first test file that needs one
          globalSetup: ['server/env-server/test/postgres-global.ts'],
        },
      },
    ],
  },
});

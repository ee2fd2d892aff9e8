import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'lib/**/*.test.ts', 'components/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    // beforeAll hooks migrate a fresh SQLite file; on a loaded 2-core machine that can take > 10 s
    hookTimeout: 60_000,
  },
});

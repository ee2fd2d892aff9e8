import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'lib/**/*.test.ts', 'components/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    // DB-backed suites run `prisma migrate deploy` in beforeAll; it takes 10–20 s on a loaded 2-core machine.
    hookTimeout: 120_000,
  },
});

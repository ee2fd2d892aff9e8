// ESLint (flat config): typescript-eslint's recommended rules, no import cycles, and the
// layering the README promises (engine → service → tRPC/actions → components), checked.
// Formatting is Prettier's job (`npm run lint` runs both).

import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const UI_PACKAGES = ['next', 'next/*', 'react', 'react/*', 'react-dom', 'react-dom/*'];

/** `no-restricted-imports` for bare package names; paths inside the repo are checked by `import-x/no-restricted-paths`. */
const noPackages = (names, message) => ['error', { patterns: [{ group: names, message }] }];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'server/generated/**',
      'next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      '.test-results/**',
      '.eval/**',
      'data/**',
      // deliberately broken code that lint-cycles.test.ts feeds to ESLint
      'scripts/lint-fixtures/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // which files import-x parses when it follows imports (without these it sees no .ts module and finds no cycle)
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true, project: './tsconfig.json' })],
    },
    rules: {
      // A cycle of run-time imports (type-only imports are erased and allowed).
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server/engine',
              from: [
                './app',
                './components',
                './lib',
                './server/generated',
                './server/episodes',
                './server/trpc',
                './server/db',
              ],
              message: 'the engine is pure TypeScript: it imports nothing from the app, Prisma or the service layer',
            },
            {
              target: './lib',
              from: './components',
              message: 'lib/ never imports components/ (move the shared piece to lib/)',
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['server/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': noPackages(
        [...UI_PACKAGES, '@prisma/*', 'prisma', 'prisma/*'],
        'the engine is pure TypeScript: no Next, React or Prisma',
      ),
    },
  },
  {
    files: ['server/episodes/**/*.ts'],
    rules: {
      'no-restricted-imports': noPackages(
        ['next', 'next/*'],
        'the service layer imports nothing from Next (call notFound() etc. in the page)',
      ),
    },
  },
  {
    // Tests read untyped tool results and hidden goals; typing every probe would add noise, not safety.
    files: ['**/*.test.ts', 'server/engine/testing/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // plain Node scripts and config files
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);

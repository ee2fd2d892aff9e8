// Bundles the worker threads' entries after `next build` (Next does not bundle a Worker's file):
// server/models/batch-worker-entry.ts → .next/workers/batch.mjs and
// server/catalog-loader/worker-entry.ts → .next/workers/catalog.mjs (the list of
// server/lib/worker-thread.ts), loaded by a production server. Without them the server loads the
// TypeScript sources through tsx: slower to start, same behaviour.
import { build } from 'esbuild';

await build({
  entryPoints: {
    batch: 'server/models/batch-worker-entry.ts',
    catalog: 'server/catalog-loader/worker-entry.ts',
  },
  outdir: '.next/workers',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  tsconfig: 'tsconfig.json',
  // CommonJS dependencies inside an ES module bundle still call require()
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});
console.log('› bundled the worker threads into .next/workers/');

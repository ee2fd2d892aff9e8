// The app's worker threads: the batch worker (batch runs and curriculum steps) and the catalog loader. Each entry is the
// esbuild bundle made at build time (`.next/workers/<name>.mjs`, scripts/build-workers.mjs) when
// it exists and the process is a production server; otherwise (dev, tests, a build without the
// bundle) the TypeScript source, loaded through tsx (server/lib/worker-boot.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** Each worker's TypeScript source (scripts/build-workers.mjs bundles the same list). */
export const WORKER_SOURCES = {
  batch: 'server/models/batch-worker-entry.ts',
  catalog: 'server/catalog-loader/worker-entry.ts',
} as const;
export type WorkerName = keyof typeof WORKER_SOURCES;

export const builtWorkerFile = (name: WorkerName) => `.next/workers/${name}.mjs`;

/** How to start a worker: the built bundle, or the source through tsx. `root` is the project directory. */
export function workerEntry(
  name: WorkerName,
  root = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): { file: string; built: boolean } {
  // turbopackIgnore: these files are loaded at run time, never bundled or traced by the build
  const built = path.join(/* turbopackIgnore: true */ root, builtWorkerFile(name));
  if (env.NODE_ENV === 'production' && fs.existsSync(/* turbopackIgnore: true */ built))
    return { file: built, built: true };
  return { file: path.join(/* turbopackIgnore: true */ root, 'server/lib/worker-boot.mjs'), built: false };
}

export function startWorkerThread(
  name: WorkerName,
  opts: { root?: string; resourceLimits?: ResourceLimits } = {},
): Worker {
  const root = opts.root ?? process.cwd();
  const entry = workerEntry(name, root);
  const worker = new Worker(/* turbopackIgnore: true */ entry.file, {
    workerData: entry.built ? undefined : { entry: path.join(/* turbopackIgnore: true */ root, WORKER_SOURCES[name]) },
    resourceLimits: opts.resourceLimits,
  });
  return worker;
}

// Starts a worker thread from its TypeScript source through tsx (dev, tests, and a production
// server whose build has no bundled workers): see server/lib/worker-thread.ts.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

register();
await import(pathToFileURL(workerData.entry).href);

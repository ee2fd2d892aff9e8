// Starts the curriculum worker from its TypeScript source through tsx (dev, tests, and a
// production server whose build has no bundled worker): see server/curriculum/worker-player.ts.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

register();
await import(pathToFileURL(workerData.entry).href);

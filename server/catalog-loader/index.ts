// Loads a catalog file in a worker thread (worker-entry.ts): the server's event loop only wraps
// the transferred bytes in typed-array views and builds the term lookup (a few ms at 2M
// products), instead of reading 265 MB and computing the bound table (≈ 1–2 s) while every
// other request waits. Imported catalogs still unpack their texts here (strings cannot be
// transferred); that part grows with the catalog's text.
import { once } from 'node:events';
import { parseBinFile } from '@/server/engine/catalog/binfile';
import { catalogFromBinFile, type LoadedCatalogFile } from '@/server/engine/catalog/catalog-file';
import { startWorkerThread } from '@/server/lib/worker-thread';
import type { LoadReply, LoadRequest } from './worker-entry';

/** Reads and indexes a catalog file off this thread; rejects with the worker's message on a bad file. */
export async function readCatalogFileOffThread(file: string, opts: { root?: string } = {}): Promise<LoadedCatalogFile> {
  const worker = startWorkerThread('catalog', { root: opts.root });
  try {
    worker.postMessage({ file } satisfies LoadRequest);
    // `once` rejects on the worker's 'error'; an exit before the reply is a failure too
    const exited = once(worker, 'exit').then(([code]) => {
      throw new Error(`the catalog loader exited (code ${code}) before reading ${file}`);
    });
    const [reply] = (await Promise.race([once(worker, 'message'), exited])) as [LoadReply];
    if (!reply.ok) throw new Error(reply.message);
    return catalogFromBinFile(parseBinFile(reply.bytes, file), file, reply.categoryMax ?? undefined);
  } finally {
    void worker.terminate();
  }
}

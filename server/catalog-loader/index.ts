// Loads a catalog file in a worker thread (worker-entry.ts): the server's event loop only wraps
// the transferred bytes in typed-array views and builds the term lookup (a few ms at 2M
// products), instead of reading 265 MB and computing the bound table (≈ 1–2 s) while every
// other request waits. Imported catalogs still unpack their texts here (strings cannot be
// transferred); that part grows with the catalog's text.
import { parseBinFile } from '@/server/engine/catalog/binfile';
import { catalogFromBinFile, type LoadedCatalogFile } from '@/server/engine/catalog/catalog-file';
import { startWorkerThread } from '@/server/lib/worker-thread';
import type { LoadReply, LoadRequest } from './worker-entry';

/** Reads and indexes a catalog file off this thread; rejects with the worker's message on a bad file. */
export function readCatalogFileOffThread(file: string, opts: { root?: string } = {}): Promise<LoadedCatalogFile> {
  const worker = startWorkerThread('catalog', { root: opts.root });
  return new Promise<LoadedCatalogFile>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      try {
        fn();
      } catch (e) {
        reject(e);
      }
    };
    worker.once('message', (reply: LoadReply) =>
      settle(() => {
        if (!reply.ok) return reject(new Error(reply.message));
        resolve(catalogFromBinFile(parseBinFile(reply.bytes, file), file, reply.categoryMax ?? undefined));
      }),
    );
    worker.once('error', (e) => settle(() => reject(e)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`the catalog loader exited (code ${code}) before reading ${file}`))),
    );
    worker.postMessage({ file } satisfies LoadRequest);
  });
}

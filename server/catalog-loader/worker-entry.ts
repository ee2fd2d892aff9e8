// The catalog loader's worker thread: reads one catalog file and computes its index's bound table
// (the two costly parts of a load: ≈ 0.4 s and 0.5 s of CPU at 2M products), then hands both to
// the parent by transfer, without a copy (server/catalog-loader/index.ts is the other side).
// Imports only the engine's file format: no database, nothing of Next.
import fs from 'node:fs';
import { parentPort, type TransferListItem } from 'node:worker_threads';
import { parseBinFile } from '@/server/engine/catalog/binfile';
import { indexOfBinFile } from '@/server/engine/catalog/catalog-file';
import { categoryBoundsTable } from '@/server/engine/catalog/search-index';

export interface LoadRequest {
  file: string;
}
export type LoadReply =
  { ok: true; bytes: Uint8Array; categoryMax: Float32Array | null } | { ok: false; message: string };

function load(file: string): LoadReply {
  const bin = parseBinFile(fs.readFileSync(file), file);
  const { index, category, numCategories } = indexOfBinFile(bin, file);
  return { ok: true, bytes: bin.bytes, categoryMax: categoryBoundsTable(index, category, numCategories) };
}

parentPort?.on('message', ({ file }: LoadRequest) => {
  let reply: LoadReply;
  try {
    reply = load(file);
  } catch (e) {
    reply = { ok: false, message: (e as Error).message };
  }
  const transfer: TransferListItem[] = reply.ok
    ? [reply.bytes.buffer as ArrayBuffer, ...(reply.categoryMax ? [reply.categoryMax.buffer as ArrayBuffer] : [])]
    : [];
  parentPort!.postMessage(reply, transfer);
});

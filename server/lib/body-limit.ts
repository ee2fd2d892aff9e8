// Request bodies are read with a cap: a declared Content-Length over the cap is refused before
// reading, and a body without one is read only up to the cap (then refused). Nothing is parsed
// before this check.
import { HTTP_STATUS } from './errors';

/** tRPC requests: one action is ≤ 64 KB; a batch of a few calls fits with room to spare. */
export const MAX_TRPC_BODY_BYTES = 256 * 1024;

/** The inspector's import (an admin operation) uploads whole JSONL files; its own check is 25 MB. */
export const MAX_IMPORT_BODY_BYTES = 25 * 1024 * 1024;

/** The body cap for a request path: the import procedure may carry files, everything else stays small. */
export function bodyLimitFor(pathname: string, fallback: number): number {
  return /^\/api\/trpc\/([^/]*,)?inspector\.import(,|$)/.test(pathname) ? MAX_IMPORT_BODY_BYTES : fallback;
}

/**
 * `Connection: close` on every 413: Node's HTTP server otherwise keeps reading (and discarding)
 * the rest of the upload to reuse the connection, so a 300 MB body still cost 300 MB of reading
 * and the client saw the answer only after it had sent everything. Closing stops the upload.
 */
export const CLOSE_CONNECTION = { connection: 'close' } as const;

/** The one 413 of every body cap: what arrived (when declared) and the limit. */
function tooLargeResponse(limit: number, got?: number): Response {
  const size =
    got !== undefined ? `is ${got} bytes; the limit is ${limit} bytes` : `passed the limit of ${limit} bytes`;
  return Response.json(
    { error: { code: 'TOO_LARGE', message: `request body ${size}. Nothing was read or run.` } },
    { status: HTTP_STATUS.TOO_LARGE, headers: CLOSE_CONNECTION },
  );
}

/** The body as bytes, or null when it exceeds `limit` (the rest is not read). */
export async function readCapped(req: Request, limit: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** The request with its body read under the cap, or a 413 response. */
export async function withCappedBody(req: Request, limit: number): Promise<Request | Response> {
  if (req.method === 'GET' || req.method === 'HEAD') return req;
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return tooLargeResponse(limit, declared);
  const body = await readCapped(req, limit);
  if (body === null) return tooLargeResponse(limit);
  return new Request(req.url, { method: req.method, headers: req.headers, body: body as BodyInit });
}

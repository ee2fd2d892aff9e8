// Pages take no body, and GETs carry none: those are answered before Next sees the request
// (issue 29: a 300 MB upload to a page was left unread and cut off ~6 s after Next answered, and
// a GET with a body skipped the proxy's gate). The routes that read a body (tRPC, /api/env, the
// model turn, /api/inspector) cut it at their own limit before reading (body-limit.ts); this
// guard does nothing for them. Installed on Node's HTTP server by instrumentation.ts: it answers
// and closes the connection at once, so the rest of the upload is never read.
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';

const BODY_ROUTES = /^\/(api\/|play\/[^/]+\/(trpc|model-turn)(\/|$))/;

/** Why the request is refused before anything reads it, or null to hand it to Next. */
export function pageBodyRefusal(req: {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
}): { status: 400 | 413; message: string } | null {
  const declared = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (declared === undefined || Number(declared) === 0)) return null;
  if (req.method === 'GET' || req.method === 'HEAD')
    return { status: 400, message: `a ${req.method} request carries no body. Nothing was read or run.` };
  const path = (req.url ?? '/').split('?')[0];
  if (BODY_ROUTES.test(path)) return null;
  // the app has no server actions: a page reads no body, so it takes none (and every page
  // request then meets proxy.ts, which skips requests with a body)
  return { status: 413, message: 'a page takes no body. Nothing was read or run.' };
}

/**
 * Answers a refused request at once on its socket and half-closes it: the client reads the answer
 * while the rest of its upload stays unread (nobody reads the request, so Node stops reading the
 * socket once its small buffer is full); the socket is dropped 2 s later. Closing it at once
 * would reset a connection the client is still writing to, and it might never see the answer.
 */
function refuse(req: IncomingMessage, r: { status: number; message: string }) {
  const body = JSON.stringify({ error: { code: r.status === 413 ? 'TOO_LARGE' : 'BAD_REQUEST', message: r.message } });
  const socket = req.socket;
  socket.end(
    `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), 2000).unref();
}

const GUARDED = Symbol.for('ecomrlve.pageBodyGuard');

/**
 * Puts the guard in front of every 'request' event of `target` (a server, or
 * http.Server.prototype for every server of the process: Next's own, which the app cannot reach).
 */
export function installPageBodyGuard(target: Pick<Server, 'emit'>): void {
  const t = target as Pick<Server, 'emit'> & { [GUARDED]?: true };
  if (t[GUARDED]) return;
  t[GUARDED] = true;
  const emit = t.emit;
  t.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const refused = pageBodyRefusal(args[0] as IncomingMessage);
      if (refused) {
        refuse(args[0] as IncomingMessage, refused);
        return true;
      }
    }
    return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
  } as Server['emit'];
}

// The first gate on every request the Node HTTP server hands to Next: an oversized body is
// refused (413, connection closed) before anything reads it. A declared Content-Length over the
// path's cap is refused at once; a body without one (chunked) is counted as it arrives and the
// connection is closed when it passes the cap. Next's proxy and route handlers only see a
// request after Next has begun handling it, and Node then drains the rest of an upload to reuse
// the connection: a 300 MB POST to a page was refused only after 300 MB had been read.
// Routes keep their own, smaller caps (server/lib/body-limit.ts); this is the outer bound.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { MAX_IMPORT_BODY_BYTES, MAX_POST_BYTES, tooLargeMessage } from './body-limit';

/** The outer cap for a request path: the inspector's import carries files, `/api/env` may be configured larger. */
export function outerBodyLimit(pathname: string): number {
  if (/^\/api\/trpc\/([^/]*,)?inspector\.import(,|$)/.test(pathname)) return MAX_IMPORT_BODY_BYTES;
  if (pathname.startsWith('/api/env/'))
    return Math.max(MAX_POST_BYTES, Number(process.env.ECOMRLVE_MAX_BODY_BYTES) || 0);
  return MAX_POST_BYTES;
}

function refuse(req: IncomingMessage, res: ServerResponse, limit: number, got?: number): void {
  const socket = req.socket;
  if (!res.headersSent && !res.writableEnded) {
    const body = JSON.stringify({ error: { code: 'TOO_LARGE', message: tooLargeMessage(limit, got) } });
    res.writeHead(413, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  }
  // Stop reading the upload: once the answer is written, the socket goes (no drain for keep-alive).
  if (res.writableFinished || res.headersSent) setImmediate(() => socket.destroy());
  else res.once('finish', () => socket.destroy());
}

/**
 * Checks one request before any handler runs. Returns true when it was refused (the caller must
 * not pass it on). Otherwise counts its body as it arrives, without consuming it.
 */
export function guardRequest(req: IncomingMessage, res: ServerResponse, limitFor = outerBodyLimit): boolean {
  const limit = limitFor((req.url ?? '/').split('?')[0]);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    refuse(req, res, limit, declared);
    return true;
  }
  // The parser hands each body chunk to req.push; counting there leaves the stream untouched for
  // whoever reads it (Next's body readers, paused or flowing).
  let total = 0;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk != null && typeof chunk !== 'string' && (chunk as Buffer).byteLength !== undefined) {
      total += (chunk as Buffer).byteLength;
      if (total > limit) {
        refuse(req, res, limit);
        return false;
      }
    }
    return push(chunk, encoding);
  };
  return false;
}

/** Serves a request itself (true) or leaves it to the server's own handler (false). */
export type DirectHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const STATE = Symbol.for('ecomrlve.requestGuard');

/**
 * Puts the guard in front of every `request` event of every HTTP server in this process (Next's
 * own server included, which exists before instrumentation runs). `direct` may serve a request
 * that passed the guard before the server's handler sees it (the agent seat's step route).
 * Idempotent: a second call only replaces `direct`.
 */
export function installRequestGuard(opts: { direct?: DirectHandler } = {}): void {
  const proto = http.Server.prototype as unknown as Record<symbol, { direct?: DirectHandler } | undefined> & {
    emit: (event: string | symbol, ...args: unknown[]) => boolean;
  };
  const installed = proto[STATE];
  if (installed) {
    if (opts.direct) installed.direct = opts.direct;
    return;
  }
  const state = { direct: opts.direct };
  proto[STATE] = state;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      if (guardRequest(req, res) || state.direct?.(req, res)) return true;
    }
    return emit.call(this, event, ...args);
  };
}

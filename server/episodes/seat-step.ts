// The agent seat's lean step (POST /play/<id>/step): the playground's hot path. Same role check,
// input rules and payload as tRPC `seat.step`, without tRPC's or a server action's request
// decoding. Under /play/<id> so the episode's capability cookie (path /play/<id>) comes along;
// programs send the x-episode-token header instead. Served two ways with one core (`seatStep`):
// straight from Node's HTTP server before Next (`serveSeatStep`, installed by instrumentation.ts:
// Next's request handling cost more CPU than the step itself), and as an app route handler
// (`handleSeatStep`, app/play/[episodeId]/step/route.ts) wherever the direct path is not installed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { localRequestRefusal } from '@/server/lib/local-request';
import { z } from 'zod';
import { authConfig, credentialsFrom, requireAgent } from '@/server/auth';
import { MAX_TRPC_BODY_BYTES, readCapped, tooLargeMessage } from '@/server/lib/body-limit';
import { AppError, HTTP_STATUS, toPublicError } from '@/server/lib/errors';
import type { EpisodeService } from './service';
import { toSeatView } from './seat';

/** One turn's fields, shared with tRPC `seat.step`: raw agent text or a structured action, and an optional step key. */
export const stepFields = {
  action: z.union([z.string(), z.record(z.string(), z.unknown())]),
  stepKey: z.string().min(1).max(100).optional(),
};
const stepBody = z.strictObject(stepFields);

const HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store, no-transform' };

/** What the core needs of a request: its headers, and its body read under a cap (null: over it). */
interface StepRequest {
  header(name: string): string | null;
  body(limit: number): Promise<Uint8Array | null>;
}

function parseBody(bytes: Uint8Array): z.infer<typeof stepBody> {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AppError('BAD_INPUT', 'step body: not JSON; send {"action": …, "stepKey"?: "…"}');
  }
  const r = stepBody.safeParse(json);
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`).join('; ');
    throw new AppError('BAD_INPUT', `step body: ${msg}`);
  }
  return r.data;
}

/** One step: the status and the JSON answer (the agent seat's view, or {error: {code, message}}). */
export async function seatStep(
  req: StepRequest,
  episodeId: string,
  service: EpisodeService,
): Promise<{ status: number; body: unknown }> {
  try {
    await requireAgent(authConfig(), credentialsFrom({ get: (n) => req.header(n) }), episodeId, (id, token) =>
      service.checkCapability(id, token),
    );
    const declared = Number(req.header('content-length'));
    if (declared > MAX_TRPC_BODY_BYTES) throw new AppError('TOO_LARGE', tooLargeMessage(MAX_TRPC_BODY_BYTES, declared));
    const bytes = await req.body(MAX_TRPC_BODY_BYTES);
    if (bytes === null) throw new AppError('TOO_LARGE', tooLargeMessage(MAX_TRPC_BODY_BYTES));
    const { action, stepKey } = parseBody(bytes);
    const view = await service.submitAction(episodeId, action as never, { stepKey, actor: 'human' });
    return { status: 200, body: toSeatView(view) };
  } catch (e) {
    const { code, message } = toPublicError(e);
    return { status: HTTP_STATUS[code], body: { error: { code, message } } };
  }
}

/** The app route handler's side. */
export async function handleSeatStep(req: Request, episodeId: string, service: EpisodeService): Promise<Response> {
  const { status, body } = await seatStep(
    { header: (n) => req.headers.get(n), body: (limit) => readCapped(req, limit) },
    episodeId,
    service,
  );
  return Response.json(body, { status, headers: { ...HEADERS, ...(status === 413 ? { connection: 'close' } : {}) } });
}

/** Reads a Node request's body, or null once it passes `limit` (the rest is not read). */
function nodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    req.on('data', (c: Buffer) => {
      total += c.length;
      if (total > limit) {
        req.pause();
        resolve(null);
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const STEP_PATH = /^\/play\/([A-Za-z0-9_-]{1,64})\/step$/;

/**
 * Serves POST /play/<id>/step on Node's HTTP server, before Next. Returns false for any other
 * request (Next handles it).
 */
export function serveSeatStep(req: IncomingMessage, res: ServerResponse, service: EpisodeService): boolean {
  if (req.method !== 'POST') return false;
  const m = STEP_PATH.exec((req.url ?? '').split('?')[0]);
  if (!m) return false;
  const header = (n: string) => {
    const v = req.headers[n.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
  // a foreign Host or a cross-site POST goes on to Next, whose proxy.ts refuses it (403)
  const facts = {
    method: 'POST',
    host: header('host'),
    origin: header('origin'),
    secFetchSite: header('sec-fetch-site'),
  };
  if (localRequestRefusal(facts, process.env.ECOMRLVE_BIND?.trim() || '127.0.0.1', process.env)) return false;
  void seatStep({ header, body: (limit) => nodeBody(req, limit) }, m[1], service).then(
    ({ status, body }) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        ...HEADERS,
        'content-length': Buffer.byteLength(text),
        ...(status === 413 ? { connection: 'close' } : {}),
      });
      res.end(text);
      if (status === 413) res.once('finish', () => req.socket.destroy());
    },
    () => {
      res.writeHead(500, HEADERS);
      res.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'internal error' } }));
    },
  );
  return true;
}

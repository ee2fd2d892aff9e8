// The agent seat's lean step route (POST /play/<id>/step): the playground's hot path. Same role
// check, input rules and payload as tRPC `seat.step` and the former server action, without
// tRPC's or a server action's request decoding. Under /play/<id> so the episode's capability
// cookie (path /play/<id>) comes along; programs send the x-episode-token header instead.
import { z } from 'zod';
import { authConfig, credentialsFrom, requireAgent } from '@/server/auth';
import { MAX_TRPC_BODY_BYTES, readCapped, tooLargeResponse } from '@/server/lib/body-limit';
import { AppError, HTTP_STATUS, toPublicError } from '@/server/lib/errors';
import type { EpisodeService } from './service';
import { toSeatView } from './seat';

/** One turn's fields, shared with tRPC `seat.step`: raw agent text or a structured action, and an optional step key. */
export const stepFields = {
  action: z.union([z.string(), z.record(z.string(), z.unknown())]),
  stepKey: z.string().min(1).max(100).optional(),
};
const stepBody = z.strictObject(stepFields);

const NO_STORE = { 'cache-control': 'no-store, no-transform' };

function errorResponse(e: unknown): Response {
  const { code, message } = toPublicError(e);
  return Response.json({ error: { code, message } }, { status: HTTP_STATUS[code], headers: NO_STORE });
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

/** POST /play/<id>/step {action, stepKey?} → the agent seat's view after the turn (JSON), or {error: {code, message}}. */
export async function handleSeatStep(req: Request, episodeId: string, service: EpisodeService): Promise<Response> {
  try {
    await requireAgent(authConfig(), credentialsFrom(req.headers), episodeId, (id, token) =>
      service.checkCapability(id, token),
    );
    const declared = Number(req.headers.get('content-length'));
    if (declared > MAX_TRPC_BODY_BYTES) return tooLargeResponse(MAX_TRPC_BODY_BYTES, declared);
    const bytes = await readCapped(req, MAX_TRPC_BODY_BYTES);
    if (bytes === null) return tooLargeResponse(MAX_TRPC_BODY_BYTES);
    const { action, stepKey } = parseBody(bytes);
    const view = await service.submitAction(episodeId, action as never, { stepKey, actor: 'human' });
    return Response.json(toSeatView(view), { headers: NO_STORE });
  } catch (e) {
    return errorResponse(e);
  }
}

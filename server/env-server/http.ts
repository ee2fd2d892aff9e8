// HTTP routes, OpenEnv's: POST /reset, POST /step, GET /state (simulation mode only, as in
// OpenEnv), GET /schema, /metadata, /health, /openapi.json, POST /mcp; and ours, GET /info.
// Bodies are OpenEnv's response models (openenv-wire.ts). Reset and step answer once their rows
// are committed (when recording). Transport-free: the node:http server and the Next route both
// hand a parsed request here and send back the status and JSON body it returns.

import type { ServerMode } from './config';
import { EnvServerError, asEnvServerError } from './errors';
import { validationDetail } from './action-check';
import { handleMcp, RPC } from './mcp';
import { NO_EPISODE_STATE, wireReset, wireState, wireStep } from './openenv-wire';
import { openApiDocument } from './openapi';
import type { EnvService } from './protocol';
import { describeIssues, wireStepRequestSchema } from './schemas';
import { bearerToken } from '@/server/episodes/tokens';
import { ClientShare, type Place } from './client-share';

/** Each service's places for episodes started over HTTP or MCP (client-share.ts): capped per client. */
const sharesByService = new WeakMap<EnvService, ClientShare>();
function shareOf(service: EnvService): ClientShare {
  let share = sharesByService.get(service);
  if (!share) {
    const what = 'episodes started over HTTP running';
    share = new ClientShare({ max: Infinity, perClient: service.config.maxSessionsPerClient, what });
    sharesByService.set(service, share);
  }
  return share;
}

/** A client's place for an episode it starts; free again once the episode ends or is dropped. */
function placeFor(service: EnvService, client: string | null) {
  let id: string | null = null;
  const running = () => {
    const live = id === null ? undefined : service.sessions.peek(id);
    return id === null || (!!live && !live.episode.done);
  };
  const place: Place | null = client === null ? null : shareOf(service).admit(client, { alive: running });
  return {
    started: (episodeId: string) => void (id = episodeId),
    /** Frees the place when nothing was started (the start failed). */
    settle: () => void (place && id === null && shareOf(service).release(place)),
  };
}

/** Starts an episode in the client's place. */
function startFor<T>(
  service: EnvService,
  client: string | null,
  start: () => { response: T & { episode_id: string } },
) {
  const place = placeFor(service, client);
  try {
    const { response } = start();
    place.started(response.episode_id);
    return response;
  } finally {
    place.settle();
  }
}

export interface HttpRequestLike {
  method: string;
  /** Path below the mount point, e.g. "/reset". */
  path: string;
  query: URLSearchParams;
  authorization: string | null;
  /** The body as text (already size-checked by the transport), or null when empty. */
  body: string | null;
  /** The client's address, for the per-client cap on episodes it starts (absent: not capped). */
  client?: string | null;
}

export interface HttpResult {
  status: number;
  /** undefined: no body (202 to an MCP notification). */
  body: unknown;
}

const ROUTES: Record<string, 'GET' | 'POST'> = {
  '/reset': 'POST',
  '/step': 'POST',
  '/state': 'GET',
  '/schema': 'GET',
  '/metadata': 'GET',
  '/health': 'GET',
  '/openapi.json': 'GET',
  '/mcp': 'POST',
  '/info': 'GET',
};
/** OpenEnv registers these in simulation mode only; production mode plays over /ws and /mcp. */
const SIMULATION_ONLY = new Set(['/reset', '/step', '/state']);

/** Each mode's routes (built once, not per request). */
const MODE_ROUTES: Record<ServerMode, Record<string, 'GET' | 'POST'>> = {
  simulation: ROUTES,
  production: Object.fromEntries(Object.entries(ROUTES).filter(([p]) => !SIMULATION_ONLY.has(p))),
};

function parseJson(text: string | null): unknown {
  if (text === null || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new EnvServerError('INVALID_JSON', `the request body is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * POST /step. Without an episode_id it answers as OpenEnv's stateless HTTP does (a fresh
 * environment takes the action): a new PD d 0 episode, whose id and token the answer carries.
 */
async function step(service: EnvService, body: unknown, bearer: string | null, client: string | null) {
  const parsed = wireStepRequestSchema.safeParse(body);
  if (!parsed.success)
    throw new EnvServerError(
      'VALIDATION_ERROR',
      `step: ${describeIssues(parsed.error)}`,
      null,
      validationDetail(parsed.error, ['body']),
    );
  const req = parsed.data;
  if (req.episode_id !== undefined)
    return wireStep(
      await service.stepEpisode(req.episode_id, bearer ?? req.token ?? null, req.action, req.step_key ?? null),
    );
  const reset = startFor(service, client, () => service.reset({}));
  await service.durable(reset);
  const r = await service.stepEpisode(reset.episode_id, reset.token, req.action, req.step_key ?? null);
  return wireReset({ ...reset, ...r }, service.config.mode);
}

async function mcp(
  service: EnvService,
  text: string | null,
  bearer: string | null,
  client: string | null,
): Promise<HttpResult> {
  let message: unknown;
  try {
    message = JSON.parse(text ?? '');
  } catch {
    return {
      status: 200,
      body: { jsonrpc: '2.0', id: null, error: { code: RPC.PARSE_ERROR, message: 'Parse error' } },
    };
  }
  const episode = bearer?.startsWith('ept1.') ? { id: bearer.split('.')[1], token: bearer } : null;
  let place: ReturnType<typeof placeFor> | null = null;
  const answer = await handleMcp(service, message, {
    episode,
    connection: false,
    admit: () => void (place = placeFor(service, client)),
    started: (started) => place?.started(started.id),
  }).finally(() => place?.settle());
  return answer === null ? { status: 202, body: undefined } : { status: 200, body: answer };
}

export async function handleHttp(service: EnvService, req: HttpRequestLike): Promise<HttpResult> {
  const path = req.path.replace(/\/+$/, '') || '/';
  const mode = service.config.mode;
  try {
    const routes = MODE_ROUTES[mode];
    const method = routes[path];
    if (!method)
      throw new EnvServerError(
        'NOT_FOUND',
        `no route ${req.method} ${path}${SIMULATION_ONLY.has(path) ? ' in production mode (play over WebSocket /ws or MCP /mcp)' : ''}; routes: ${Object.entries(
          routes,
        )
          .map(([p, m]) => `${m} ${p}`)
          .join(', ')}, WebSocket /ws`,
      );
    if (req.method !== method)
      throw new EnvServerError('METHOD_NOT_ALLOWED', `${path} takes ${method}, not ${req.method}`);
    const token = bearerToken(req.authorization);
    const client = req.client ?? null;
    switch (path) {
      case '/reset': {
        const body = parseJson(req.body);
        const response = startFor(service, client, () => service.reset(body));
        return { status: 200, body: wireReset(await service.durable(response), mode) };
      }
      case '/step':
        return { status: 200, body: await step(service, parseJson(req.body), token, client) };
      case '/state': {
        const id = req.query.get('episode_id');
        if (id === null) return { status: 200, body: NO_EPISODE_STATE };
        return { status: 200, body: wireState(await service.stateRequest(id, token), mode) };
      }
      case '/schema':
        return { status: 200, body: service.schema(req.query.get('env')) };
      case '/metadata':
        return { status: 200, body: service.metadata() };
      case '/openapi.json':
        return { status: 200, body: openApiDocument(mode) };
      case '/mcp':
        return await mcp(service, req.body, token, client);
      case '/info':
        return { status: 200, body: service.info() };
      default:
        return { status: 200, body: service.health() };
    }
  } catch (e) {
    const err = asEnvServerError(e);
    return { status: err.status, body: err.toBody() };
  }
}

export function tooLarge(limit: number): HttpResult {
  const err = new EnvServerError(
    'BODY_TOO_LARGE',
    `the request body is larger than ${limit} bytes (ECOMRLVE_MAX_BODY_BYTES)`,
  );
  return { status: err.status, body: err.toBody() };
}

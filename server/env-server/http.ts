// HTTP routes (OpenEnv's shape): POST /reset, POST /step, GET /state, GET /schema,
// GET /metadata, GET /health. Reset and step answer once their rows are committed (when
// recording). Transport-free: the node:http server and the Next route both
// hand a parsed request here and send back the status and JSON body it returns.

import { EnvServerError, asEnvServerError } from './errors';
import type { EnvService } from './protocol';
import { bearerToken } from '@/server/episodes/tokens';

export interface HttpRequestLike {
  method: string;
  /** Path below the mount point, e.g. "/reset". */
  path: string;
  query: URLSearchParams;
  authorization: string | null;
  /** The body as text (already size-checked by the transport), or null when empty. */
  body: string | null;
}

export interface HttpResult {
  status: number;
  body: unknown;
}

const ROUTES: Record<string, 'GET' | 'POST'> = {
  '/reset': 'POST',
  '/step': 'POST',
  '/state': 'GET',
  '/schema': 'GET',
  '/metadata': 'GET',
  '/health': 'GET',
};

function parseJson(text: string | null): unknown {
  if (text === null || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new EnvServerError('INVALID_JSON', `the request body is not valid JSON: ${(e as Error).message}`);
  }
}

export async function handleHttp(service: EnvService, req: HttpRequestLike): Promise<HttpResult> {
  const path = req.path.replace(/\/+$/, '') || '/';
  try {
    const method = ROUTES[path];
    if (!method)
      throw new EnvServerError(
        'NOT_FOUND',
        `no route ${req.method} ${path}; routes: ${Object.entries(ROUTES)
          .map(([p, m]) => `${m} ${p}`)
          .join(', ')}, WebSocket /ws`,
      );
    if (req.method !== method)
      throw new EnvServerError('METHOD_NOT_ALLOWED', `${path} takes ${method}, not ${req.method}`);
    const token = bearerToken(req.authorization);
    switch (path) {
      case '/reset': {
        const body = parseJson(req.body);
        return { status: 200, body: await service.durable(service.reset(body).response) };
      }
      case '/step':
        return { status: 200, body: await service.stepRequest(parseJson(req.body), token) };
      case '/state':
        return { status: 200, body: await service.stateRequest(req.query.get('episode_id'), token) };
      case '/schema':
        return { status: 200, body: service.schema(req.query.get('env')) };
      case '/metadata':
        return { status: 200, body: service.metadata() };
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

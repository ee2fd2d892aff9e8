// The env service inside the Next app (/api/env/...): one per process, configured from the same
// environment variables as `npm run serve:env`. HTTP only there; the WebSocket session needs the
// standalone server (Next route handlers cannot take a connection upgrade).

import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { prisma } from '@/server/db';
import { episodeService } from '@/server/episodes';
import { loadConfig } from './config';
import { handleHttp, tooLarge, type HttpResult } from './http';
import type { EnvService } from './protocol';
import { buildEnvService } from './server';
import { CLOSE_CONNECTION, readCapped } from '@/server/lib/body-limit';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { callerAddress } from '@/server/auth/login-throttle';
import { EnvServerError } from './errors';

const g = globalThis as unknown as { __ecomEnvService?: EnvService };

export function appEnvService(): EnvService {
  if (!g.__ecomEnvService) {
    const config = loadConfig(process.env, [], DEFAULT_CATALOG_ID);
    // Records into the app's own database (the same Prisma client the pages read), holding its
    // episodes in the episode service's live cache: one per process.
    g.__ecomEnvService = buildEnvService(config, getCatalog(config.catalogId), {
      prisma,
      sessions: episodeService.sessions,
    }).service;
  }
  return g.__ecomEnvService;
}

/** On an exposed app (auth on) axis overrides are an admin operation, as in tRPC's seat.start. */
function overridesRefused(req: Request, subPath: string, body: string | null): HttpResult | null {
  const cfg = authConfig();
  if (!cfg.enabled || subPath.replace(/\/+$/, '') !== '/reset' || !body) return null;
  if (isAdmin(cfg, credentialsFrom(req.headers))) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null; // handleHttp reports the bad JSON
  }
  if (!parsed || typeof parsed !== 'object' || !('axis_overrides' in parsed)) return null;
  const err = new EnvServerError(
    'BAD_TOKEN',
    'axis_overrides is an admin operation on this server: send the admin token (Authorization: Bearer <ECOMRLVE_ADMIN_TOKEN>)',
  );
  return { status: err.status, body: err.toBody() };
}

/** A fetch-API request below `mount` (e.g. "/api/env"), answered by the env protocol. */
export async function handleFetchRequest(req: Request, subPath: string): Promise<Response> {
  const service = appEnvService();
  const limit = service.config.maxBodyBytes;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const declared = Number(req.headers.get('content-length') ?? 0);
  // read only up to the limit: a chunked upload has no length to check first
  const bytes = hasBody && !(declared > limit) ? await readCapped(req, limit) : null;
  const text = bytes === null ? null : Buffer.from(bytes).toString('utf8');
  const result: HttpResult =
    hasBody && bytes === null
      ? tooLarge(limit)
      : (overridesRefused(req, subPath, text) ??
        (await handleHttp(service, {
          method: req.method,
          path: subPath,
          query: new URL(req.url).searchParams,
          authorization: req.headers.get('authorization'),
          body: text,
          // the per-client cap, as on serve:env: the address Next passes on
          client: callerAddress(req.headers),
        })));
  if (result.body === undefined) return new Response(null, { status: result.status });
  const body = JSON.stringify(result.body);
  return new Response(body, {
    status: result.status,
    headers: { 'content-type': 'application/json', ...(result.status === 413 ? CLOSE_CONNECTION : {}) },
  });
}

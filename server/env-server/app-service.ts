// The env service inside the Next app (/api/env/...): one per process, configured from the same
// environment variables as `npm run serve:env`. HTTP only there; the WebSocket session needs the
// standalone server (Next route handlers cannot take a connection upgrade).

import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { prisma } from '@/server/db';
import { loadConfig } from './config';
import { handleHttp, tooLarge, type HttpResult } from './http';
import type { EnvService } from './protocol';
import { buildEnvService } from './server';

const g = globalThis as unknown as { __ecomEnvService?: EnvService };

export function appEnvService(): EnvService {
  if (!g.__ecomEnvService) {
    const config = loadConfig(process.env, [], DEFAULT_CATALOG_ID);
    // Records into the app's own database (the same Prisma client the pages read).
    g.__ecomEnvService = buildEnvService(config, getCatalog(config.catalogId), prisma).service;
  }
  return g.__ecomEnvService;
}

/** A fetch-API request below `mount` (e.g. "/api/env"), answered by the env protocol. */
export async function handleFetchRequest(req: Request, subPath: string): Promise<Response> {
  const service = appEnvService();
  const limit = service.config.maxBodyBytes;
  let result: HttpResult;
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > limit) result = tooLarge(limit);
  else {
    const text = req.method === 'GET' || req.method === 'HEAD' ? null : await req.text();
    result =
      text !== null && Buffer.byteLength(text) > limit
        ? tooLarge(limit)
        : await handleHttp(service, {
            method: req.method,
            path: subPath,
            query: new URL(req.url).searchParams,
            authorization: req.headers.get('authorization'),
            body: text,
          });
  }
  return Response.json(result.body, { status: result.status });
}

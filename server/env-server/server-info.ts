// The describing endpoints: GET /schema (the published JSON Schemas), /metadata and /health.
import { listEnvs, type Catalog } from '@/server/engine';
import type { EnvServerConfig } from './config';
import { EnvServerError } from './errors';
import { publishedSchemas } from './schemas';
import type { SessionStore } from './sessions';
import type { TokenService } from '@/server/episodes/tokens';

export const SERVER_VERSION = '1';

export function schemaFor(envId: string | null) {
  if (envId !== null && !listEnvs().some((e) => e.id === envId))
    throw new EnvServerError(
      'VALIDATION_ERROR',
      `schema: unknown env "${envId}"; available: ${listEnvs()
        .map((e) => e.id)
        .join(', ')}`,
    );
  return publishedSchemas(envId);
}

export function metadataOf(config: EnvServerConfig, catalog: Catalog, tokens: TokenService, persistence: boolean) {
  return {
    name: 'EcomRLVE-GYM',
    description:
      'Eight shopping-assistant environments with verifiable rewards: one JSON action per turn (message, tool calls, answer).',
    version: SERVER_VERSION,
    readme_content: null,
    author: null,
    documentation_url: null,
    mode: config.mode,
    catalog: catalog.id,
    envs: listEnvs().map((e) => ({ id: e.id, name: e.name, description: e.description, tools: e.tools })),
    limits: {
      max_sessions: config.maxSessions,
      idle_timeout_s: config.idleTimeoutMs / 1000,
      max_body_bytes: config.maxBodyBytes,
    },
    admin: tokens.adminEnabled && config.mode === 'simulation',
    persistence,
  };
}

export function healthOf(sessions: SessionStore) {
  return { status: 'healthy' as const, active_sessions: sessions.size, max_sessions: sessions.capacity };
}

// The describing endpoints. GET /schema, /metadata and /health answer exactly OpenEnv's
// SchemaResponse, EnvironmentMetadata and HealthResponse (extra fields forbidden); what is ours
// about the server (mode, catalog, envs, limits, sessions) is at GET /info.
import { listEnvs, type Catalog } from '@/server/engine';
import type { EnvServerConfig } from './config';
import { EnvServerError } from './errors';
import { publishedSchemas } from './schemas';
import type { LiveEpisodes } from '@/server/episodes/live';
import type { TokenService } from '@/server/episodes/tokens';

export const SERVER_VERSION = '3';

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

const DESCRIPTION =
  'Eight shopping-assistant environments with verifiable rewards: one JSON action per turn (message, tool calls, answer).';

function readme(config: EnvServerConfig): string {
  const envs = listEnvs()
    .map((e) => `- **${e.id}** (${e.name}): ${e.description}`)
    .join('\n');
  const control =
    config.mode === 'simulation'
      ? 'Simulation mode: HTTP `/reset`, `/step`, `/state` (stateful: the reset answer carries the episode id and token in `observation.metadata`), WebSocket `/ws`, MCP `/mcp`.'
      : 'Production mode: WebSocket `/ws` and MCP `/mcp` (`openenv/session/create`, then `tools/call` with the episode token); the server draws every seed and keeps it.';
  return `# EcomRLVE-GYM\n\n${DESCRIPTION}\n\n${control}\n\nReset parameters: \`env\`, \`d\` (0–100), \`run\`, \`episode_id\`${config.mode === 'simulation' ? ', `seed`, `axis_overrides`' : ''}. Server details: \`GET /info\`.\n\n## Environments\n\n${envs}\n`;
}

/** OpenEnv's EnvironmentMetadata. */
export function metadataOf(config: EnvServerConfig) {
  return {
    name: 'EcomRLVE-GYM',
    description: DESCRIPTION,
    readme_content: readme(config),
    version: SERVER_VERSION,
    author: null,
    documentation_url: null,
  };
}

/** Ours: what a trainer needs to plan against this server. */
export function infoOf(
  config: EnvServerConfig,
  catalog: Catalog,
  tokens: TokenService,
  persistence: boolean,
  sessions: LiveEpisodes,
) {
  return {
    name: 'EcomRLVE-GYM',
    version: SERVER_VERSION,
    mode: config.mode,
    catalog: catalog.id,
    envs: listEnvs().map((e) => ({ id: e.id, name: e.name, description: e.description, tools: e.tools })),
    limits: {
      max_sessions: config.maxSessions,
      max_sessions_per_client: config.maxSessionsPerClient,
      idle_timeout_s: config.idleTimeoutMs / 1000,
      max_body_bytes: config.maxBodyBytes,
    },
    active_sessions: sessions.size,
    admin: tokens.adminEnabled && config.mode === 'simulation',
    persistence,
  };
}

/** OpenEnv's HealthResponse. */
export function healthOf() {
  return { status: 'healthy' as const };
}

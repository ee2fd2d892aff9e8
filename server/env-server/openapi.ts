// GET /openapi.json: the routes this server serves in its mode, with the request and response
// schemas made from the same zod schemas that check requests. `openenv validate` reads the mode
// from it (simulation: /reset, /step and /state listed; production: none of them).

import { z } from 'zod';
import type { ServerMode } from './config';
import {
  agentStateSchema,
  jsonSchema,
  resetRequestSchema,
  wireObservationSchema,
  wireResultSchema,
  wireStepRequestSchema,
} from './schemas';
import { SERVER_VERSION } from './server-info';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const ok = (description: string, schema: unknown) => ({ 200: { description, content: json(schema) } });
const ERROR = { description: 'a protocol error: {detail, episode_id, error: {code, message}}' };

const components = () => ({
  ResetRequest: jsonSchema(resetRequestSchema),
  StepRequest: jsonSchema(wireStepRequestSchema),
  StepResponse: jsonSchema(wireResultSchema),
  Observation: jsonSchema(wireObservationSchema),
  State: jsonSchema(agentStateSchema),
  SchemaResponse: {
    type: 'object',
    properties: { action: { type: 'object' }, observation: { type: 'object' }, state: { type: 'object' } },
    required: ['action', 'observation', 'state'],
    additionalProperties: false,
  },
  HealthResponse: jsonSchema(z.strictObject({ status: z.enum(['healthy', 'unhealthy', 'degraded']) })),
  EnvironmentMetadata: jsonSchema(
    z.strictObject({
      name: z.string(),
      description: z.string(),
      readme_content: z.string().nullable(),
      version: z.string().nullable(),
      author: z.string().nullable(),
      documentation_url: z.string().nullable(),
    }),
  ),
  JsonRpcRequest: jsonSchema(
    z.strictObject({
      jsonrpc: z.literal('2.0'),
      method: z.string(),
      params: z.record(z.string(), z.unknown()).optional(),
      id: z.union([z.string(), z.int()]).nullable().optional(),
    }),
  ),
});

const cache = new Map<ServerMode, unknown>();

export function openApiDocument(mode: ServerMode) {
  const hit = cache.get(mode);
  if (hit) return hit;
  const simulation = {
    '/reset': {
      post: {
        summary: 'Start an episode; its id and capability token are in observation.metadata',
        requestBody: { required: false, content: json(ref('ResetRequest')) },
        responses: { ...ok('the first observation', ref('StepResponse')), 422: ERROR },
      },
    },
    '/step': {
      post: {
        summary: 'One turn of an episode (token as "Authorization: Bearer …" or in the body)',
        requestBody: { required: true, content: json(ref('StepRequest')) },
        responses: { ...ok('the next observation', ref('StepResponse')), 422: ERROR },
      },
    },
    '/state': {
      get: {
        summary: 'An episode’s state (agent-visible with its token; full with the admin token)',
        parameters: [{ name: 'episode_id', in: 'query', required: false, schema: { type: 'string' } }],
        responses: ok('the state', ref('State')),
      },
    },
  };
  const always = {
    '/schema': {
      get: {
        summary: 'JSON Schemas of the action (of one env with ?env=), the observation and the state',
        parameters: [{ name: 'env', in: 'query', required: false, schema: { type: 'string' } }],
        responses: ok('the schemas', ref('SchemaResponse')),
      },
    },
    '/metadata': { get: { summary: 'About this environment', responses: ok('metadata', ref('EnvironmentMetadata')) } },
    '/health': { get: { summary: 'Health check', responses: ok('healthy', ref('HealthResponse')) } },
    '/info': {
      get: {
        summary: 'Mode, catalog, envs, limits and sessions of this server',
        responses: ok('info', { type: 'object' }),
      },
    },
    '/mcp': {
      post: {
        summary: 'MCP JSON-RPC 2.0: initialize, ping, tools/list, tools/call, openenv/session/create',
        requestBody: { required: true, content: json(ref('JsonRpcRequest')) },
        responses: {
          ...ok('a JSON-RPC response', { type: 'object' }),
          202: { description: 'a notification, accepted' },
        },
      },
    },
  };
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'EcomRLVE-GYM env server',
      version: SERVER_VERSION,
      description: `OpenEnv HTTP API (${mode} mode); WebSocket sessions at /ws.`,
    },
    paths: mode === 'simulation' ? { ...simulation, ...always } : always,
    components: { schemas: components() },
  };
  cache.set(mode, doc);
  return doc;
}

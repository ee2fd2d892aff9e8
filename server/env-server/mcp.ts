// MCP (Model Context Protocol) over JSON-RPC 2.0: POST /mcp and the WebSocket `mcp` message,
// as OpenEnv's mcp_types.py and the MCP spec define them (initialize, tools/list, tools/call).
// The tools are one episode's: its env's tools and `reply` and `answer`, scoped by the episode's
// capability token ("Authorization: Bearer …" on HTTP; the connection on the WebSocket).
// One tools/call is one turn of the episode: the call (with an optional assistant_message to the
// customer), a reply, or the answer; its result is the turn's observation. openenv/session/create
// (OpenEnv's session method) starts an episode, the way in for an MCP client in production mode.

import { z } from 'zod';
import { getEnv } from '@/server/engine/envs/registry';
import { toolSpecsFor, type Action } from '@/server/engine';
import { EnvServerError, asEnvServerError } from './errors';
import { wireReset } from './openenv-wire';
import type { EnvService, StepResponse } from './protocol';
import { jsonSchema } from './schemas';
import { SERVER_VERSION } from './server-info';

const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** JSON-RPC 2.0 error codes (OpenEnv's JsonRpcErrorCode). */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  SERVER_ERROR: -32000,
} as const;

type RpcId = string | number | null;
type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: { code: number; message: string; data?: unknown } };

/** Who is calling: the episode it may act on (null: none yet). */
interface McpCaller {
  episode: { id: string; token: string } | null;
  /** The WebSocket session that started the episode (the connection is the capability). */
  connection: boolean;
  /** Before openenv/session/create starts an episode: throws when the caller may not (per-client cap). */
  admit?(): void;
  /** openenv/session/create started an episode: the WebSocket makes it its current one. */
  started?(episode: { id: string; token: string }): void;
}

const ASSISTANT_MESSAGE = {
  type: 'string',
  minLength: 1,
  description: 'what the assistant says to the customer this turn (a short holding line when absent)',
};
const DEFAULT_MESSAGE = { call: 'One moment, let me check that for you.', answer: 'Here is my answer.' };
const RESERVED = new Set(['reset', 'step', 'state', 'close']);

const INSTRUCTIONS =
  'You are a shopping assistant talking to a customer. Each tool call is one turn of the conversation: ' +
  'the tool runs, and its result carries the tool output and the customer’s next message. Use `reply` to ' +
  'only talk to the customer (ask or confirm), and `answer` to give your final answer, which ends the ' +
  'episode and returns its reward.';

const toolCache = new Map<string, { name: string; description: string; inputSchema: Record<string, unknown> }[]>();

/** The episode's MCP tools: the env's tools (each with an optional assistant_message), reply, answer. */
function mcpTools(envId: string) {
  const hit = toolCache.get(envId);
  if (hit) return hit;
  const env = getEnv(envId);
  const calls = toolSpecsFor(envId).map((spec) => {
    if (RESERVED.has(spec.name)) throw new Error(`tool name "${spec.name}" is reserved by OpenEnv`);
    const params = spec.parameters as { properties?: Record<string, unknown> };
    return {
      name: spec.name,
      description: spec.description,
      inputSchema: { ...params, properties: { ...params.properties, assistant_message: ASSISTANT_MESSAGE } },
    };
  });
  const answer = jsonSchema(
    env.answerSchema.extend({
      done: z.boolean().default(true).describe('true ends the episode (false: a provisional answer)'),
      assistant_message: z.string().min(1).optional().describe(ASSISTANT_MESSAGE.description),
    }),
  );
  const tools = [
    ...calls,
    {
      name: 'reply',
      description: 'Say something to the customer without a tool (ask a question, confirm a detail).',
      inputSchema: {
        type: 'object',
        properties: { assistant_message: { ...ASSISTANT_MESSAGE, description: 'what to say' } },
        required: ['assistant_message'],
        additionalProperties: false,
      },
    },
    {
      name: 'answer',
      description: `Give the final ${envId} answer; ends the episode and returns its reward.`,
      inputSchema: answer,
    },
  ];
  toolCache.set(envId, tools);
  return tools;
}

/** The turn a tools/call asks for, or null for a tool this env does not have. */
export function actionForCall(envId: string, name: string, args: Record<string, unknown>): Action | null {
  const { assistant_message, ...rest } = args;
  const message = typeof assistant_message === 'string' ? assistant_message : null;
  if (name === 'reply') return { assistant_message: message ?? '', tool_calls: [], answer: null };
  if (name === 'answer') {
    const { done, ...fields } = rest;
    return {
      assistant_message: message ?? DEFAULT_MESSAGE.answer,
      tool_calls: [],
      answer: { ...fields, env: envId, done: done === undefined ? true : (done as boolean) },
    };
  }
  if (!getEnv(envId).tools.includes(name as never)) return null;
  return { assistant_message: message ?? DEFAULT_MESSAGE.call, tool_calls: [{ name, args: rest }], answer: null };
}

/** A turn's observation as the model reads it (also the text content). */
function turnResult(r: StepResponse) {
  const o = r.observation;
  return {
    turn: o.turn,
    customer_message: o.customerMessage,
    tool_results: o.toolResults,
    ...(o.error ? { error: o.error } : {}),
    done: r.done,
    reward: r.reward,
    termination: r.termination,
    reward_parts: r.reward_parts,
  };
}

const ok = (id: RpcId, result: unknown): RpcResponse => ({ jsonrpc: '2.0', id, result });
const fail = (id: RpcId, code: number, message: string, data?: unknown): RpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

function envOf(service: EnvService, caller: McpCaller, params: Record<string, unknown>): string | null {
  if (caller.episode) {
    const held = service.sessions.peek(caller.episode.id);
    if (held) return held.config.envId;
  }
  return typeof params.env === 'string' ? params.env : null;
}

/** The answer to one JSON-RPC message; null for a notification (no id: nothing is sent back). */
export async function handleMcp(service: EnvService, message: unknown, caller: McpCaller): Promise<RpcResponse | null> {
  const m = message as { jsonrpc?: unknown; method?: unknown; params?: unknown; id?: unknown } | null;
  const id: RpcId = typeof m?.id === 'string' || typeof m?.id === 'number' ? m.id : null;
  if (!m || typeof m !== 'object' || Array.isArray(m) || m.jsonrpc !== '2.0' || typeof m.method !== 'string')
    return fail(id, RPC.INVALID_REQUEST, 'Invalid Request: a JSON-RPC 2.0 object {"jsonrpc":"2.0","method",…}');
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params)))
    return fail(id, RPC.INVALID_PARAMS, 'Invalid params: params must be an object');
  const params = (m.params ?? {}) as Record<string, unknown>;
  if (!('id' in m) || m.id === undefined) return null; // a notification (notifications/initialized, …)
  try {
    switch (m.method) {
      case 'initialize': {
        const asked = params.protocolVersion;
        const version = MCP_PROTOCOL_VERSIONS.includes(asked as never) ? asked : MCP_PROTOCOL_VERSIONS[1];
        return ok(id, {
          protocolVersion: version,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'ecomrlve-gym', version: SERVER_VERSION },
          instructions: INSTRUCTIONS,
        });
      }
      case 'ping':
        return ok(id, {});
      case 'tools/list': {
        const envId = envOf(service, caller, params);
        if (!envId || !service.info().envs.some((e) => e.id === envId))
          return fail(
            id,
            RPC.INVALID_PARAMS,
            'tools are one episode’s: send its token ("Authorization: Bearer …", from reset or openenv/session/create), or params.env to browse an env’s',
          );
        return ok(id, { tools: mcpTools(envId) });
      }
      case 'tools/call':
        return await callTool(service, caller, id, params);
      case 'openenv/session/create': {
        caller.admit?.();
        const { response } = service.reset(params);
        await service.durable(response);
        caller.started?.({ id: response.episode_id, token: response.token });
        return ok(id, { session_id: response.episode_id, ...wireReset(response, service.config.mode) });
      }
      default:
        return fail(
          id,
          RPC.METHOD_NOT_FOUND,
          `Method not found: ${m.method}; methods: initialize, ping, tools/list, tools/call, openenv/session/create`,
        );
    }
  } catch (e) {
    const err = asEnvServerError(e, caller.episode?.id ?? null);
    const code = err.code === 'VALIDATION_ERROR' ? RPC.INVALID_PARAMS : RPC.SERVER_ERROR;
    return fail(id, code, err.message, { code: err.code, episode_id: err.episodeId });
  }
}

async function callTool(service: EnvService, caller: McpCaller, id: RpcId, params: Record<string, unknown>) {
  const name = params.name;
  const args = params.arguments ?? {};
  if (typeof name !== 'string') return fail(id, RPC.INVALID_PARAMS, "Invalid params: 'name' (the tool) is required");
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return fail(id, RPC.INVALID_PARAMS, "Invalid params: 'arguments' must be an object");
  if (!caller.episode)
    return fail(id, RPC.INVALID_PARAMS, 'tools/call acts on one episode: send its token as "Authorization: Bearer …"');
  const { live } = await service.holdEpisode(caller.episode.id, caller.episode.token, caller.connection);
  const action = actionForCall(live.config.envId, name, args as Record<string, unknown>);
  if (!action) return fail(id, RPC.INVALID_PARAMS, `Unknown tool: ${name}; tools/list names this episode’s tools`);
  try {
    const r = await service.stepEpisode(live.id, caller.episode.token, action, null, caller.connection);
    const result = turnResult(r);
    return ok(id, {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
      isError: false,
    });
  } catch (e) {
    // What the model can act on (a malformed call, a finished episode) is a tool error it reads.
    if (!(e instanceof EnvServerError) || !['VALIDATION_ERROR', 'EPISODE_DONE'].includes(e.code)) throw e;
    return ok(id, { content: [{ type: 'text', text: `${e.code}: ${e.message}` }], isError: true });
  }
}

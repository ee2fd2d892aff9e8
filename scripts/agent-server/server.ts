// An OpenAI-compatible chat-completions server in front of one built-in agent:
// GET /v1/models, POST /v1/chat/completions (tool-calling and JSON modes, plain
// or streamed). A program of its own (npm run agent:serve), never part of the app:
// tests and demos exercise the whole model path over real HTTP without a GPU.
// Listens on loopback only.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Catalog, EpisodeConfig } from '@/server/engine';
import { EPISODE_HEADER } from '@/server/models/table';
import type { ChatRequest, ChatResponse, Usage, WireToolCall } from '@/server/models/openai';
import { assistantToolMessage } from '@/server/models/transcript';
import { AgentRequestError, decide, type BuiltInAgent } from '@/server/models/agents';
import { DriverCache } from './driver-cache';
import { reconstruct, TranscriptError } from './reconstruct';

export interface AgentServerOptions {
  agent: BuiltInAgent;
  port: number;
  host?: string;
  allowOracle?: boolean;
  /** Built lazily: only the oracle needs it. */
  catalog?: () => Catalog;
  randomSeed?: number;
  /** Heuristic drivers kept between requests (default 256; 0 replays every request from turn 1). */
  cacheSize?: number;
  /** Called once per request with a one-line summary (no message contents). */
  log?: (line: string) => void;
}

const MAX_BODY = 16 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const sendError = (res: ServerResponse, status: number, message: string) =>
  send(res, status, {
    error: { message, type: status === 404 ? 'not_found_error' : 'invalid_request_error', code: status },
  });

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new AgentRequestError(`request body over ${MAX_BODY} bytes`, 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A rough token count (4 characters a token): the built-in agents have no tokenizer. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function parseEpisodeHeader(value: string | string[] | undefined): EpisodeConfig | null {
  if (value === undefined) return null;
  try {
    const config = JSON.parse(Array.isArray(value) ? value[0] : value);
    if (typeof config?.envId !== 'string' || !Number.isInteger(config.d) || !Number.isInteger(config.seed))
      throw new Error();
    return config;
  } catch {
    throw new AgentRequestError(`${EPISODE_HEADER} must be JSON {"envId", "d", "seed"}`);
  }
}

export function createAgentServer(options: AgentServerOptions): Server {
  let created = 0;
  const cache = new DriverCache(options.cacheSize ?? 256);
  let catalog: Catalog | null = null;
  const ctxCatalog = () => (catalog ??= options.catalog?.() ?? fail('this server has no catalog'));
  const fail = (m: string): never => {
    throw new AgentRequestError(m, 500);
  };

  async function completions(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    let request: ChatRequest;
    const text = await readBody(req);
    try {
      request = JSON.parse(text);
    } catch {
      throw new AgentRequestError('the request body is not JSON');
    }
    if (!request || typeof request !== 'object' || Array.isArray(request))
      throw new AgentRequestError('the request body must be a JSON object');
    if (request.model !== options.agent)
      throw new AgentRequestError(`model "${request.model}" is not served here; available: ${options.agent}`, 404);
    const conversation = reconstruct(request);
    const action = decide(options.agent, conversation, {
      episodeConfig: parseEpisodeHeader(req.headers[EPISODE_HEADER]),
      allowOracle: options.allowOracle ?? false,
      catalog: ctxCatalog,
      randomSeed: options.randomSeed ?? 0,
      sampling: { temperature: request.temperature ?? 0, seed: request.seed ?? options.randomSeed ?? 0 },
      cache,
    });
    const turn = conversation.actions.length + 1;
    const message =
      conversation.mode === 'tools'
        ? (assistantToolMessage(action, turn) as { content: string; tool_calls?: WireToolCall[] })
        : { content: JSON.stringify(action) };
    const finish = message.tool_calls?.length ? 'tool_calls' : 'stop';
    const usage: Usage = {
      prompt_tokens: estimateTokens(text),
      completion_tokens: estimateTokens(JSON.stringify(message)),
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens! + usage.completion_tokens!;
    const id = `chatcmpl-${options.agent}-${++created}`;
    options.log?.(
      `${conversation.envId} turn ${turn} ${conversation.mode} → ${finish} (${Math.round(performance.now() - started)} ms)`,
    );
    if (request.stream) return stream(res, id, request.model, message, finish, usage);
    const body: ChatResponse = {
      id,
      object: 'chat.completion',
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
      usage,
    };
    send(res, 200, body);
  }

  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
    if (req.method === 'GET' && path === '/v1/models')
      return send(res, 200, { object: 'list', data: [{ id: options.agent, object: 'model', owned_by: 'ecomrlve' }] });
    if (req.method === 'POST' && path === '/v1/chat/completions')
      return void completions(req, res).catch((e) => {
        if (e instanceof AgentRequestError) return sendError(res, e.status, e.message);
        if (e instanceof TranscriptError) return sendError(res, 400, e.message);
        options.log?.(`error: ${(e as Error).message}`);
        sendError(res, 500, `agent failed: ${(e as Error).message}`);
      });
    sendError(res, 404, `no route ${req.method} ${path}; this server has GET /v1/models and POST /v1/chat/completions`);
  });
}

/** Server-sent events as OpenAI streams them: role, content in pieces, tool calls by index, finish, usage. */
function stream(
  res: ServerResponse,
  id: string,
  model: string,
  message: { content: string | null; tool_calls?: WireToolCall[] },
  finish: string,
  usage: Usage,
) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: object, finish_reason: string | null = null, extra: object = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant' });
  const content = message.content ?? '';
  for (let i = 0; i < content.length; i += 24) chunk({ content: content.slice(i, i + 24) });
  (message.tool_calls ?? []).forEach((call, index) => {
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] });
  });
  chunk({}, finish, { usage });
  res.end('data: [DONE]\n\n');
}

export function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

// The conformance check run when a connection is saved: five probes, each a real
// gym turn (an episode's opening as the driver would send it), each pass/fail
// with one sentence naming what went wrong. One attempt per probe, no retries:
// the point is to see the endpoint as it is.

import { createEpisode, type Catalog, type EnvId, type EpisodeConfig } from '@/server/engine';
import { chatCompletion, type ChatOptions, type ChatReply } from './client';
import type { ActionMode, Connection } from './connection';
import { buildRequest } from './table';
import type { ChatRequest } from './openai';
import { ANSWER_TOOL, openAiTools, wireToolName } from './prompt';
import { stripCodeFence } from './transcript';

export const CHECKS = {
  answers: 'the endpoint answers a chat request',
  tools: 'honours `tools`: calls an offered function with JSON-object arguments',
  tool_choice_required: 'honours tool_choice "required": calls a tool',
  parallel_tool_calls: 'makes parallel tool calls: two or more calls in one reply',
  json: 'writes parseable JSON: a gym action as text in JSON mode',
} as const;
export type CheckId = keyof typeof CHECKS;

export interface CheckResult {
  id: CheckId;
  label: string;
  ok: boolean;
  /** Why it failed (or what was seen when it passed). */
  detail: string;
  latencyMs: number | null;
}

export interface ConformanceReport {
  ok: boolean;
  checks: CheckResult[];
  /** Ids of failing checks, for a badge. */
  failing: CheckId[];
}

// Openings where a competent agent searches once (PD d 0) and where two searches are natural (PD d 4: two constraints to look up, 3 calls allowed).
const SINGLE: EpisodeConfig = { envId: 'PD', d: 0, seed: 1 };
const PARALLEL: EpisodeConfig = { envId: 'PD', d: 4, seed: 1 };

/** The request the driver would send for the episode's opening, in `mode`, not streamed. */
function openingRequest(
  connection: Connection,
  catalog: Catalog,
  config: EpisodeConfig,
  mode: ActionMode,
  extra: Partial<ChatRequest> = {},
): ChatRequest {
  const observation = createEpisode(config, catalog).reset().observation;
  const history = { observations: [observation], actions: [] };
  return { ...buildRequest({ ...connection, actionMode: mode, stream: false }, history), ...extra };
}

const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

function callProblem(reply: ChatReply, envId: EnvId): string | null {
  const offered = new Set([...openAiTools(envId).map((t) => t.function.name), ANSWER_TOOL]);
  for (const call of reply.toolCalls) {
    if (!offered.has(call.function.name))
      return `called "${call.function.name}", which was not offered (e.g. ${wireToolName('catalog.search')})`;
    try {
      if (!isObject(JSON.parse(call.function.arguments || '{}')))
        return `the arguments of ${call.function.name} are not a JSON object`;
    } catch {
      return `the arguments of ${call.function.name} are not valid JSON: ${JSON.stringify(call.function.arguments.slice(0, 80))}`;
    }
  }
  return null;
}

export async function checkConformance(
  connection: Connection,
  catalog: Catalog,
  options: Pick<ChatOptions, 'signal' | 'env'> = {},
): Promise<ConformanceReport> {
  const probe = async (
    id: CheckId,
    request: ChatRequest,
    judge: (reply: ChatReply) => string | null,
  ): Promise<CheckResult> => {
    try {
      const reply = await chatCompletion({ ...connection, stream: false }, request, options);
      const problem = judge(reply);
      const seen = reply.toolCalls.length
        ? `${reply.toolCalls.length} tool call(s): ${reply.toolCalls.map((c) => c.function.name).join(', ')}`
        : `text: ${JSON.stringify((reply.content ?? '').slice(0, 80))}`;
      return { id, label: CHECKS[id], ok: problem === null, detail: problem ?? seen, latencyMs: reply.latencyMs };
    } catch (e) {
      return { id, label: CHECKS[id], ok: false, detail: (e as Error).message, latencyMs: null };
    }
  };
  const env = SINGLE.envId;
  const checks = [
    await probe('answers', openingRequest(connection, catalog, SINGLE, 'json'), (r) =>
      r.content === null && r.toolCalls.length === 0 ? 'the reply has neither text nor tool calls' : null,
    ),
    await probe('tools', openingRequest(connection, catalog, SINGLE, 'tools', { tool_choice: 'auto' }), (r) =>
      r.toolCalls.length === 0
        ? 'replied with text and no tool call although tools were offered for a search request'
        : callProblem(r, env),
    ),
    await probe(
      'tool_choice_required',
      openingRequest(connection, catalog, SINGLE, 'tools', { tool_choice: 'required' }),
      (r) =>
        r.toolCalls.length === 0
          ? 'tool_choice "required" was not honoured: the reply has no tool call'
          : callProblem(r, env),
    ),
    await probe(
      'parallel_tool_calls',
      openingRequest(connection, catalog, PARALLEL, 'tools', { tool_choice: 'required', parallel_tool_calls: true }),
      (r) =>
        r.toolCalls.length < 2
          ? `${r.toolCalls.length} tool call(s) in the reply; parallel calls need two or more`
          : callProblem(r, env),
    ),
    await probe('json', openingRequest(connection, catalog, SINGLE, 'json'), (r) => {
      let value: unknown;
      try {
        value = JSON.parse(stripCodeFence(r.content ?? ''));
      } catch {
        return `the text is not JSON: ${JSON.stringify((r.content ?? '').slice(0, 80))}`;
      }
      if (!isObject(value)) return 'the JSON is not an object';
      return typeof (value as { assistant_message?: unknown }).assistant_message === 'string'
        ? null
        : 'the JSON object has no "assistant_message" string';
    }),
  ];
  const failing = checks.filter((c) => !c.ok).map((c) => c.id);
  return { ok: failing.length === 0, checks, failing };
}

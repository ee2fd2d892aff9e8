// The agent server is stateless: every request carries the whole conversation,
// and this file reads the agent seat's observations and the actions taken back
// out of it (the inverse of transcript.ts).

import { toolSpecsFor, type Action, type Observation, type ToolResult } from '@/server/engine';
import type { Conversation } from '@/server/models/agents';
import type { ActionMode } from '@/server/models/connection';
import type { ChatMessage, ChatRequest } from '@/server/models/openai';
import { ANSWER_TOOL, engineToolName, parseGymLine } from '@/server/models/prompt';
import { actionFromReply } from '@/server/models/transcript';

export class TranscriptError extends Error {}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** The request's messages, or one sentence saying what is wrong with them. */
function messagesOf(request: unknown): ChatMessage[] {
  const messages = (request as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) throw new TranscriptError('"messages" must be a list of chat messages');
  messages.forEach((m, i) => {
    if (!m || typeof m !== 'object' || !ROLES.has((m as { role?: string }).role ?? ''))
      throw new TranscriptError(`messages[${i}] must be an object whose "role" is system, user, assistant or tool`);
    const { role, content } = m as { role: string; content?: unknown };
    if ((role === 'user' || role === 'tool' || role === 'system') && typeof content !== 'string')
      throw new TranscriptError(`messages[${i}] (${role}) must have text "content"`);
  });
  return messages as ChatMessage[];
}

export function reconstruct(request: ChatRequest): Conversation {
  const messages = messagesOf(request);
  const system = messages[0]?.role === 'system' ? messages[0].content : '';
  const gym = parseGymLine(typeof system === 'string' ? system : '');
  if (!gym)
    throw new TranscriptError(
      'not a gym conversation: the first message must be the gym\'s system prompt (ending with its "[gym] env=… T_max=… B_tool=…" line)',
    );
  const { envId, budgets } = gym;
  const mode: ActionMode = request.tools?.length ? 'tools' : 'json';
  const tools = toolSpecsFor(envId);
  const observe = (turn: number, customerMessage: string | null, toolResults: ToolResult[]): Observation => ({
    envId,
    turn,
    customerMessage,
    toolResults,
    tools,
    budgets: { ...budgets },
    done: false,
  });

  const observations: Observation[] = [];
  const actions: Array<Action | string> = [];
  let pending: { results: ToolResult[]; ids: Map<string, number> } | null = null;

  for (const message of messages.slice(1)) {
    if (message.role === 'user') {
      const turn = actions.length;
      if (observations.length > turn)
        throw new TranscriptError(`two user messages in a row before agent turn ${turn + 1}`);
      if (mode === 'json') {
        const value = parseJson(message.content) as { customer_message?: string | null; tool_results?: ToolResult[] };
        if (!value || typeof value !== 'object' || !('customer_message' in value))
          throw new TranscriptError(
            `user message ${observations.length + 1} is not a gym observation (JSON with "customer_message")`,
          );
        observations.push(observe(turn, value.customer_message ?? null, value.tool_results ?? []));
      } else {
        observations.push(observe(turn, message.content, pending?.results ?? []));
      }
      pending = null;
    } else if (message.role === 'assistant') {
      if (observations.length !== actions.length + 1)
        throw new TranscriptError(`assistant message for turn ${actions.length + 1} has no observation before it`);
      if (mode === 'json') {
        actions.push(message.content ?? '');
        continue;
      }
      actions.push(actionFromReply(envId, 'tools', message));
      const ids = new Map<string, number>();
      const results: ToolResult[] = [];
      for (const call of message.tool_calls ?? []) {
        if (call.function.name === ANSWER_TOOL) continue;
        ids.set(call.id, results.length);
        results.push({
          name: engineToolName(envId, call.function.name),
          args: parseJson(call.function.arguments),
          result: null,
          error: null,
        });
      }
      pending = { results, ids };
    } else if (message.role === 'tool') {
      const index = pending?.ids.get(message.tool_call_id);
      if (index === undefined) continue; // the answer tool's acknowledgement
      const content = parseJson(message.content) as { result?: unknown; error?: string };
      pending!.results[index] = {
        ...pending!.results[index],
        result: content?.error !== undefined ? null : (content?.result ?? null),
        error: content?.error ?? null,
      };
    }
  }
  if (observations.length !== actions.length + 1)
    throw new TranscriptError('the conversation must end with an observation (a user message) for the agent to answer');
  return { envId, mode, observations, actions };
}

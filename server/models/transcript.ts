// An agent-seat history (observations and the actions taken) as chat messages,
// and a model's reply as one engine action. Both action modes live here so the
// driver and the agent server cannot disagree about the format.

import {
  toolSpecsFor,
  type Action,
  type EnvId,
  type EpisodeEvent,
  type Observation,
  type ToolCall,
} from '@/server/engine';
import type { SeatView } from '@/server/episodes/seat';
import type { ActionMode } from './connection';
import type { ChatMessage, WireToolCall } from './openai';
import { ANSWER_TOOL, engineToolName, envInfo, systemPrompt, wireToolName } from './prompt';

/** What the agent seat saw and did: observations[0] is the reset; observations[i+1] follows actions[i]. */
export interface SeatHistory {
  observations: Observation[];
  actions: Array<Action | string>;
}

/**
 * The observation the engine answered at `turn` (0: the reset's), rebuilt from that turn's
 * events: the customer's reply, the tool results, an unusable action's error. Without the tool
 * specs, which only a model's prompt needs (seatHistory adds them).
 */
export function observationOf(
  envId: EnvId,
  turnEvents: readonly EpisodeEvent[],
  turn: number,
  budgets: Observation['budgets'],
): Omit<Observation, 'tools'> {
  const customer = turnEvents.findLast((e) => e.kind === 'customer_message');
  const error = turnEvents.find((e) => e.kind === 'action_error');
  return {
    envId,
    turn,
    customerMessage: customer?.kind === 'customer_message' ? customer.text : null,
    toolResults: turnEvents.flatMap((e) =>
      e.kind === 'tool_call' ? [{ name: e.name, args: e.args, result: e.result, error: e.error }] : [],
    ),
    budgets,
    done: false,
    ...(error?.kind === 'action_error' ? { error: error.error } : {}),
  };
}

/**
 * The seat's history as the driver reads it: observations[0] is the opening, observations[t]
 * what turn t's step returned (its tool results and the customer's reply). Built from the
 * agent-seat events only (world changes stay hidden while the episode is active).
 */
export function seatHistory(
  seat: Pick<SeatView, 'envId' | 'events' | 'budgets'>,
  actions: Array<Action | string>,
): SeatHistory {
  const envId = seat.envId as EnvId;
  const tools = toolSpecsFor(envId);
  const byTurn = new Map<number, EpisodeEvent[]>();
  for (const e of seat.events) byTurn.set(e.turn, [...(byTurn.get(e.turn) ?? []), e]);
  const observations: Observation[] = [];
  for (let t = 0; t <= actions.length; t++)
    observations.push({ ...observationOf(envId, byTurn.get(t) ?? [], t, seat.budgets), tools });
  return { observations, actions };
}

/** The result of a tool call as a tool message's content. */
export const toolResultContent = (r: { result: unknown; error: string | null }) =>
  JSON.stringify(r.error !== null ? { error: r.error } : { result: r.result });

/** A JSON-mode observation message: the customer's words and the previous turn's tool results. */
export const observationContent = (o: Observation) =>
  JSON.stringify({
    customer_message: o.customerMessage,
    tool_results: o.toolResults.map(({ name, args, result, error }) => ({ name, args, result, error })),
  });

const callId = (turn: number, index: number) => `call_${turn}_${index}`;
const argumentsText = (args: unknown) => (typeof args === 'string' ? args : JSON.stringify(args ?? {}));

/** The JSON object a text holds (inside a code fence or not), or null. */
function jsonObjectIn(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(stripCodeFence(text));
    return isObject(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function asAction(action: Action | string): Action | null {
  if (typeof action !== 'string') return action;
  const value = jsonObjectIn(action);
  return value && typeof value.assistant_message === 'string'
    ? {
        assistant_message: value.assistant_message,
        tool_calls: Array.isArray(value.tool_calls) ? value.tool_calls : [],
        answer: (value.answer ?? null) as Action['answer'],
      }
    : null;
}

/** The assistant message that stands for one past action in tool-calling mode. */
export function assistantToolMessage(action: Action, turn: number): ChatMessage & { role: 'assistant' } {
  const calls: WireToolCall[] = action.tool_calls.map((c, j) => ({
    id: callId(turn, j),
    type: 'function',
    function: { name: wireToolName(String(c?.name ?? '')), arguments: argumentsText(c?.args) },
  }));
  if (action.answer) {
    const { env: _env, ...fields } = action.answer;
    calls.push({
      id: callId(turn, calls.length),
      type: 'function',
      function: { name: ANSWER_TOOL, arguments: JSON.stringify(fields) },
    });
  }
  return { role: 'assistant', content: action.assistant_message, ...(calls.length ? { tool_calls: calls } : {}) };
}

export function buildMessages(history: SeatHistory, mode: ActionMode): ChatMessage[] {
  const [first] = history.observations;
  if (!first) throw new Error('the history has no observation; reset the episode first');
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt(first.envId, first.budgets, mode) }];
  if (mode === 'json') messages.push({ role: 'user', content: observationContent(first) });
  else messages.push({ role: 'user', content: first.customerMessage ?? '' });

  history.actions.forEach((raw, i) => {
    const next = history.observations[i + 1];
    if (mode === 'json') {
      messages.push({ role: 'assistant', content: typeof raw === 'string' ? raw : JSON.stringify(raw) });
      if (next && !next.done) messages.push({ role: 'user', content: observationContent(next) });
      return;
    }
    const action = asAction(raw) ?? {
      assistant_message: typeof raw === 'string' ? raw : '',
      tool_calls: [],
      answer: null,
    };
    const assistant = assistantToolMessage(action, i + 1);
    messages.push(assistant);
    for (const [j, call] of (assistant.tool_calls ?? []).entries()) {
      const result =
        call.function.name === ANSWER_TOOL
          ? JSON.stringify({ recorded: true })
          : next?.toolResults[j]
            ? toolResultContent(next.toolResults[j])
            : JSON.stringify({ error: 'no result' });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
    if (next && !next.done && next.customerMessage !== null)
      messages.push({ role: 'user', content: next.customerMessage });
  });
  return messages;
}

// ---------- reply → action ----------

/** Models often wrap JSON in a ```json fence; the gym reads what is inside. */
export function stripCodeFence(text: string): string {
  const m = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return m ? m[1] : text.trim();
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text; // kept raw: the engine answers with a precise schema error for this call
  }
}

const DEFAULT_MESSAGE = { calls: 'Let me check that for you.', answer: 'Here is my answer.' };

/**
 * One engine action from a reply. Tool-calling mode: tool_calls become the turn's calls and
 * submit_answer the answer; with no tool call, a message that is a JSON answer (or a whole JSON
 * action) is used as such, any other text is a plain message to the customer. JSON mode: the text
 * itself (fence stripped) goes to the engine, which scores a malformed action as format_invalid.
 */
export function actionFromReply(
  envId: EnvId,
  mode: ActionMode,
  reply: { content: string | null; tool_calls?: WireToolCall[] },
): Action | string {
  const content = reply.content ?? '';
  if (mode === 'json') return stripCodeFence(content);

  const calls: ToolCall[] = [];
  let answer: Action['answer'] = null;
  for (const call of reply.tool_calls ?? []) {
    const args = parseArguments(call.function?.arguments ?? '');
    if (call.function?.name === ANSWER_TOOL) {
      const fields = isObject(args) ? (args as Record<string, unknown>) : { arguments: args };
      const done = typeof fields.done === 'boolean' ? fields.done : true;
      answer = { ...fields, env: envId, done };
    } else {
      calls.push({ name: engineToolName(envId, call.function?.name ?? ''), args: args as Record<string, unknown> });
    }
  }
  if (calls.length === 0 && answer === null) {
    const fromText = answerFromText(envId, content);
    if (fromText) return fromText;
  }
  const message = content.trim() || (answer ? DEFAULT_MESSAGE.answer : calls.length ? DEFAULT_MESSAGE.calls : '');
  const action = { assistant_message: message, tool_calls: calls, answer };
  // arguments that are not a JSON object go to the engine as text, which is stored and replayed as
  // sent (an action object must hold objects); the engine answers that call with its schema error
  return calls.some((c) => !isObject(c.args)) ? JSON.stringify(action) : action;
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A final message that is JSON: a whole action, or just the answer fields. */
function answerFromText(envId: EnvId, content: string): Action | string | null {
  const object = jsonObjectIn(content);
  if (!object) return null;
  if ('assistant_message' in object) return stripCodeFence(content);
  const fields = Object.keys((envInfo(envId).answerSchema.properties ?? {}) as object);
  const keys = Object.keys(object).filter((k) => k !== 'env' && k !== 'done');
  if (keys.length === 0 || !keys.every((k) => fields.includes(k))) return null;
  return {
    assistant_message: DEFAULT_MESSAGE.answer,
    tool_calls: [],
    answer: { ...object, env: envId, done: typeof object.done === 'boolean' ? object.done : true },
  };
}

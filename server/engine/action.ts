// Parsing an agent's turn (SPEC §1). Anything that is not a usable action gets
// one precise sentence saying what is wrong, because that sentence is what a
// researcher reads when a rollout dies on turn 1.

import type { Action, ToolCall } from './types';

export const MAX_ACTION_CHARS = 64 * 1024;

export type ParsedAction = { ok: true; action: Action } | { ok: false; error: string };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

export function parseAction(input: string | unknown): ParsedAction {
  let value: unknown = input;
  if (typeof input === 'string') {
    if (input.length > MAX_ACTION_CHARS)
      return { ok: false, error: `action is ${input.length} characters; the limit is ${MAX_ACTION_CHARS}` };
    if (input.trim() === '') return { ok: false, error: 'action is empty; expected a JSON object' };
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, error: `action is not valid JSON: ${(e as Error).message}` };
    }
  }
  if (!isPlainObject(value)) return { ok: false, error: `action must be a JSON object, got ${kindOf(value)}` };

  const message = value.assistant_message;
  if (message === undefined) return { ok: false, error: 'action is missing "assistant_message"' };
  if (typeof message !== 'string') return { ok: false, error: `"assistant_message" must be a string, got ${kindOf(message)}` };
  if (message.trim() === '') return { ok: false, error: '"assistant_message" must not be empty' };

  const calls = value.tool_calls ?? [];
  if (!Array.isArray(calls)) return { ok: false, error: `"tool_calls" must be a list, got ${kindOf(calls)}` };

  const answer = value.answer ?? null;
  if (answer !== null) {
    if (!isPlainObject(answer)) return { ok: false, error: `"answer" must be an object or null, got ${kindOf(answer)}` };
    if (typeof answer.env !== 'string') return { ok: false, error: '"answer.env" must be the environment id (a string)' };
    if (typeof answer.done !== 'boolean') return { ok: false, error: '"answer.done" must be true or false' };
  }

  return {
    ok: true,
    action: {
      assistant_message: message,
      tool_calls: calls as ToolCall[],
      answer: answer as Action['answer'],
    },
  };
}

/** Native function-calling names use "_" for "." (catalog_search → catalog.search). */
export function normaliseToolName(name: string, known: (n: string) => boolean): string {
  if (known(name)) return name;
  const dotted = name.replace('_', '.');
  return known(dotted) ? dotted : name;
}

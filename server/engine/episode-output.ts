// What an episode hands out: observations and the frozen reward breakdown. Both are copies (or,
// for a freshResult tool, its new result that nothing else holds), so nothing a caller does to
// them reaches the world or the event log (docs/engine.md, "Hardening").

import { frozenCopy, plainCopy } from './copy';
import type { Observation, RewardBreakdown, ToolResult, ToolSpec } from './types';

/**
 * The agent's observation. The specs are the biggest part of it and most callers never read
 * them after reset: copied on first read (or write) only, then they are a plain property.
 * Written as literal accessors (defineProperty on a finished object cost twice as much) and
 * without `...(error ? { error } : {})` (a spread after fields is a slow path in V8, issue 13).
 */
export function observation(
  envId: Observation['envId'],
  turn: number,
  customerMessage: string | null,
  toolResults: ToolResult[],
  /** Per call, a fresh result to hand out as it is (freshResult tools); else undefined: a copy of the logged one. */
  shown: readonly unknown[],
  specs: ToolSpec[],
  budgets: Observation['budgets'],
  done: boolean,
  error?: string,
): Observation {
  const settle = (target: object, value: unknown) =>
    Object.defineProperty(target, 'tools', { value, writable: true, enumerable: true, configurable: true });
  const out: Observation = {
    envId,
    turn,
    customerMessage,
    toolResults: toolResults.map((r, i) => ({
      name: r.name,
      args: plainCopy(r.args),
      result: shown[i] !== undefined ? shown[i] : plainCopy(r.result),
      error: r.error,
    })),
    get tools(): ToolSpec[] {
      const copy = plainCopy(specs);
      settle(this, copy);
      return copy;
    },
    set tools(value: ToolSpec[]) {
      settle(this, value);
    },
    budgets,
    done,
  };
  if (error) out.error = error;
  return out;
}

/**
 * The breakdown frozen like every event. It holds the task's evidence twice (task.evidence and
 * evidence.task, the same list): copied once and shared, instead of twice by a plain frozen
 * copy (the largest event of an episode; same JSON, issue 13).
 */
export function frozenBreakdown(breakdown: RewardBreakdown): RewardBreakdown {
  const out = { ...breakdown };
  for (const key in out) {
    const k = key as keyof RewardBreakdown;
    if (k !== 'evidence' && typeof out[k] === 'object' && out[k] !== null)
      (out as Record<string, unknown>)[k] = frozenCopy(out[k]);
  }
  const { task, eff, hall } = breakdown.evidence;
  out.evidence =
    task === breakdown.task.evidence
      ? Object.freeze({ task: out.task.evidence, eff: frozenCopy(eff), hall: frozenCopy(hall) })
      : frozenCopy(breakdown.evidence);
  return Object.freeze(out);
}

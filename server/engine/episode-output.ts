// What an episode hands out: observations and the frozen reward breakdown. An observation is the
// caller's own object, but its tool calls' arguments and results are the event log's frozen
// values, shared: nothing a caller does to them reaches the world or the log (docs/engine.md,
// "Copies").

import { frozenCopy, plainCopy } from './copy';
import type { Observation, RewardBreakdown, ToolResult, ToolSpec } from './types';

// module-level: a closure made per observation was half its cost (esbuild's __name under tsx)
const settle = (target: object, value: unknown) =>
  Object.defineProperty(target, 'tools', { value, writable: true, enumerable: true, configurable: true });
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
  /** The logged (frozen) arguments and results: shared, not copied. */
  toolResults: readonly ToolResult[],
  specs: ToolSpec[],
  budgets: Observation['budgets'],
  done: boolean,
  error?: string,
): Observation {
  const out: Observation = {
    envId,
    turn,
    customerMessage,
    toolResults: toolResults.map((r) => ({ name: r.name, args: r.args, result: r.result, error: r.error })),
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

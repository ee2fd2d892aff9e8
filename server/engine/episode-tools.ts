// One tool call of an agent turn (SPEC §1, §5): the budget, the name (native "_" spelling
// too), the arguments against the tool's schema, then the run. Whatever goes wrong becomes the
// call's error text, never a throw; the episode records the outcome (episode.ts).

import { normaliseToolName } from './action';
import type { Catalog } from './catalog/types';
import type { AxisValues } from './difficulty';
import type { EnvDefinition } from './envs/types';
import { Rng } from './random';
import { findTool } from './tools';
import { describeArgsError, ToolError } from './tools/registry';
import type { WorldState } from './world/state';

/** What the episode gives a call to run against. */
export interface CallScope {
  env: EnvDefinition<unknown>;
  catalog: Catalog;
  world: WorldState;
  axes: AxisValues;
  streamKey: string;
  engineVersion: number;
}

/** A call's outcome: the name as run (normalised), its result or error, the ids it showed. */
export interface CallOutcome {
  name: string;
  args: unknown;
  result: unknown;
  error: string | null;
  /** The result is new and held by nothing else (the tool's freshResult promise). */
  fresh: boolean;
  /** Product ids the result shows the agent (tool.seen). */
  seen: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

const failed = (name: string, args: unknown, error: string): CallOutcome => ({
  name,
  args,
  result: null,
  error,
  fresh: false,
  seen: NONE,
});

export function runCall(scope: CallScope, call: unknown, index: number, turn: number): CallOutcome {
  const c = call as { name?: unknown; args?: unknown };
  const name = typeof c?.name === 'string' ? c.name : '';
  const args = c?.args ?? {};
  const { env, axes } = scope;
  if (index >= axes.B_tool)
    return failed(
      name,
      args,
      `tool budget exceeded: at most ${axes.B_tool} tool call${axes.B_tool === 1 ? '' : 's'} per turn; this call was not executed`,
    );
  if (typeof call !== 'object' || call === null || !name)
    return failed(name, args, `tool call ${index + 1} must be an object with a "name" string and an "args" object`);
  const offered = (n: string) => (env.tools as readonly string[]).includes(n);
  const toolName = normaliseToolName(name, offered);
  const tool = offered(toolName) ? findTool(toolName) : undefined;
  if (!tool) return failed(name, args, `unknown tool "${name}"; available tools: ${env.tools.join(', ')}`);
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) return failed(toolName, args, describeArgsError(tool, parsed.error, args));
  try {
    const result = tool.run(parsed.data, {
      catalog: scope.catalog,
      world: scope.world,
      axes,
      turn,
      rng: Rng.from('tool', scope.streamKey, turn, index),
      engineVersion: scope.engineVersion,
    });
    const seen = tool.seen?.(result) ?? NONE;
    return { name: toolName, args, result, error: null, fresh: tool.freshResult === true, seen };
  } catch (e) {
    if (e instanceof ToolError) return failed(toolName, args, `${toolName}: ${e.message}`);
    // An engine bug must not cost the agent its turn: the failure is recorded like a tool error
    // (the fuzz tests look for this text, so such a bug still fails the suite).
    return failed(toolName, args, `${toolName}: internal error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

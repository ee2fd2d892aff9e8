// Test helper: runs one tool as the episode does (schema, handler, ToolError → error text),
// without an episode around it.
import { axesFor } from '../difficulty';
import { Rng } from '../random';
import { getTool, type ToolName } from '../tools';
import { describeArgsError, ToolError } from '../tools/registry';
import type { WorldState } from '../world/state';
import { testCatalog } from './catalog-fixture';

export function callTool(
  world: WorldState,
  name: ToolName,
  args: Record<string, unknown>,
  turn = 1,
  engineVersion?: number,
): { result?: any; error?: string; seen?: string[] } {
  const tool = getTool(name);
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) return { error: describeArgsError(tool, parsed.error, args) };
  try {
    const ctx = { catalog: testCatalog(), world, axes: axesFor(4), turn, rng: new Rng(turn), engineVersion };
    const result = tool.run(parsed.data, ctx);
    return { result, seen: tool.seen?.(result) ?? [] };
  } catch (e) {
    if (e instanceof ToolError) return { error: e.message };
    throw e;
  }
}

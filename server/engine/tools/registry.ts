// A tool is a strict zod schema beside its handler. Validation errors, the
// JSON Schema agents see and the playground's forms all come from that schema.

import { z } from 'zod';
import { frozenCopy } from '../copy';
import type { AxisValues } from '../difficulty';
import type { Catalog } from '../catalog/types';
import type { Rng } from '../random';
import type { ToolSpec } from '../types';
import type { WorldState } from '../world/state';

export interface ToolContext {
  catalog: Catalog;
  world: WorldState;
  axes: AxisValues;
  turn: number;
  /** Randomness for this call only (retrieval noise), derived from the episode seed, turn and call index. */
  rng: Rng;
  /** The engine rules the episode plays under (version.ts); absent means the current ones. */
  engineVersion?: number;
}

/** A tool failure the agent should see as the call's result ("unknown product_id …"). */
export class ToolError extends Error {}

export interface ToolDef<S extends z.ZodType = z.ZodType, N extends string = string> {
  /** A literal type, so env tool lists are checked against the tools that exist (ToolName). */
  name: N;
  description: string;
  args: S;
  run(args: z.output<S>, ctx: ToolContext): unknown;
  /** Product ids this result shows the agent (they join the episode's Seen set). */
  seen?(result: unknown): string[];
  /** A retrieval: the agent's first successful one is when an env's p_oos stock change happens (SPEC §6). */
  retrieval?: boolean;
  /**
   * run() builds a new result on every call; what it shares with the world, the catalog, its
   * args, a cache or an earlier result is already frozen all the way down (copy.ts frozenOrCopy):
   * the episode then freezes it in place and the log
   * and the observation share it, uncopied (issue 13; tools/fresh-results.test.ts checks it).
   * Without the promise the result is copied once, frozen.
   */
  freshResult?: true;
}

export function defineTool<S extends z.ZodType, const N extends string>(def: ToolDef<S, N>): ToolDef<S, N> {
  return def;
}

const specCache = new WeakMap<ToolDef, ToolSpec>();

/** The agent-facing spec, derived once per tool (zod's JSON Schema export is not free). */
export function toolSpec(tool: ToolDef): ToolSpec {
  const cached = specCache.get(tool);
  if (cached) return cached;
  // Frozen: one spec is shared by every episode, so nobody may edit it (episodes hand out copies).
  const spec = frozenCopy(buildSpec(tool));
  specCache.set(tool, spec);
  return spec;
}

function buildSpec(tool: ToolDef): ToolSpec {
  const schema = z.toJSONSchema(tool.args, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, parameters: schema };
}

/** Precise, agent-readable text for a schema failure. */
export function describeArgsError(tool: ToolDef, error: z.ZodError, args: unknown): string {
  const parts = error.issues.map((issue) => {
    const path = issue.path.join('.');
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeys(tool, issue.path);
      return (
        `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}` +
        (allowed.length ? ` (allowed: ${allowed.join(', ')})` : '')
      );
    }
    if (path === '') return `args must be a JSON object of named arguments (${issue.message})`;
    if (valueAt(args, issue.path) === undefined) return `missing required argument "${path}"`;
    return `argument "${path}": ${issue.message}`;
  });
  return `${tool.name}: ${parts.join('; ')}`;
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const key of path)
    v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

function allowedKeys(tool: ToolDef, path: PropertyKey[]): string[] {
  let schema: z.ZodType | undefined = tool.args;
  for (const key of path) {
    schema = unwrap(schema);
    if (!(schema instanceof z.ZodObject)) return [];
    schema = (schema.shape as Record<string, z.ZodType>)[String(key)];
  }
  schema = unwrap(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable)
    s = s.unwrap() as z.ZodType;
  return s;
}

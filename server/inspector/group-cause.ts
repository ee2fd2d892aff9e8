// Why a GRPO group's rollouts all got the same reward (issue 30): what every rollout of the group
// shares (termination, failing evidence line, tool errors, no tool call, hallucinated ids), and
// the first turn where their actions part. Pure: it reads event logs and reward breakdowns.

import { decisiveFirst } from '../engine/evidence';
import type { EpisodeEvent, RewardBreakdown } from '../engine/types';

export interface CauseRollout {
  id: string;
  events: readonly EpisodeEvent[];
  /** null when the episode has not been scored (not ended, or ended by the infrastructure). */
  breakdown: RewardBreakdown | null;
}

export type CauseKind =
  'format_error' | 'tool_error' | 'no_tool_call' | 'hallucinated_id' | 'failing_evidence' | 'termination';

export interface SharedCause {
  kind: CauseKind;
  /** One line for the group view, e.g. `shared tool error: unknown tool "catalog.find"`. */
  text: string;
}

export interface GroupCause {
  /** What every rollout shares, the most specific first (behaviour, then evidence, then termination). */
  causes: SharedCause[];
  /** The first agent turn at which the rollouts' actions differ; null when they never do. */
  divergenceTurn: number | null;
}

/**
 * A tool error without the parts that vary between calls of the same mistake: an unknown tool
 * keeps its name (not the list of offered tools), an argument error keeps tool and argument.
 */
export function toolErrorSignature(error: string): string {
  const unknownTool = /^unknown tool "([^"]*)"/.exec(error);
  if (unknownTool) return `unknown tool "${unknownTool[1]}"`;
  if (error.startsWith('tool budget exceeded')) return 'tool budget exceeded';
  // describeArgsError: `<tool>: unknown argument "k" (allowed: …); missing required argument "p"`
  const args = /^([^:]+): (unknown arguments? .*|missing required argument .*|argument ".*)$/.exec(error);
  if (args) return `${args[1]}: ${args[2].replace(/ \(allowed: [^)]*\)/g, '')}`;
  return error;
}

/** The rollout's termination reason, or null when it has none (not ended). */
export const terminationOf = (events: readonly EpisodeEvent[]): string | null =>
  events.findLast((e) => e.kind === 'termination')?.reason ?? null;

/** The failing task-evidence lines, decisive first (the verdict before the parts). */
export function failingEvidence(breakdown: RewardBreakdown | null): string[] {
  if (!breakdown) return [];
  return decisiveFirst(breakdown.evidence.task)
    .filter((e) => !e.ok)
    .map((e) => e.text);
}

/** Values present in every list, in the first list's order. */
function sharedByAll(lists: readonly string[][]): string[] {
  if (lists.length === 0) return [];
  const rest = lists.slice(1).map((l) => new Set(l));
  return [...new Set(lists[0])].filter((v) => rest.every((s) => s.has(v)));
}

export function groupCause(rollouts: readonly CauseRollout[]): GroupCause {
  if (rollouts.length === 0) throw new Error('groupCause: the group has no rollouts');
  const causes: SharedCause[] = [];
  const add = (kind: CauseKind, values: string[], text: (v: string) => string) =>
    values.forEach((v) => causes.push({ kind, text: text(v) }));

  const of = <K extends EpisodeEvent['kind']>(r: CauseRollout, kind: K) =>
    r.events.filter((e): e is Extract<EpisodeEvent, { kind: K }> => e.kind === kind);

  add(
    'format_error',
    sharedByAll(rollouts.map((r) => of(r, 'action_error').map((e) => e.error))),
    (v) => `shared format error: ${v}`,
  );
  add(
    'tool_error',
    sharedByAll(rollouts.map((r) => of(r, 'tool_call').flatMap((e) => (e.error ? [toolErrorSignature(e.error)] : [])))),
    (v) => `shared tool error: ${v}`,
  );
  if (rollouts.every((r) => of(r, 'tool_call').length === 0))
    causes.push({ kind: 'no_tool_call', text: 'no rollout made a tool call' });
  add(
    'hallucinated_id',
    sharedByAll(rollouts.map((r) => r.breakdown?.hallucinatedIds ?? [])),
    (v) => `same hallucinated id: ${v} was recommended but never retrieved`,
  );
  const evidence = sharedByAll(rollouts.map((r) => failingEvidence(r.breakdown)));
  if (evidence.length > 0) causes.push({ kind: 'failing_evidence', text: `shared failing evidence: ${evidence[0]}` });
  const terminations = rollouts.map((r) => terminationOf(r.events));
  if (terminations[0] !== null && terminations.every((t) => t === terminations[0]))
    causes.push({ kind: 'termination', text: `every rollout ended: ${terminations[0]}` });

  return { causes, divergenceTurn: divergenceTurn(rollouts) };
}

/**
 * What the environment acts on in a turn: the tool calls, the answer, or the unparsable text.
 * The assistant's wording is left out: sampled rollouts word the same action differently.
 */
function actionsByTurn(events: readonly EpisodeEvent[]): Map<number, string> {
  const turns = new Map<number, unknown[]>();
  for (const e of events) {
    let part: unknown;
    if (e.kind === 'tool_call') part = ['tool', e.name, e.args];
    else if (e.kind === 'answer') part = ['answer', e.answer];
    else if (e.kind === 'action_error') part = ['unparsable', e.raw];
    else if (e.kind === 'agent_message') part = ['turn'];
    else continue;
    const parts = turns.get(e.turn) ?? [];
    parts.push(part);
    turns.set(e.turn, parts);
  }
  return new Map([...turns].map(([turn, parts]) => [turn, stableJson(parts)]));
}

export function divergenceTurn(rollouts: readonly CauseRollout[]): number | null {
  const actions = rollouts.map((r) => actionsByTurn(r.events));
  const lastTurn = Math.max(0, ...actions.flatMap((a) => [...a.keys()]));
  for (let turn = 1; turn <= lastTurn; turn++) {
    // a rollout that has ended differs from one that acts
    const first = actions[0].get(turn) ?? 'ended';
    if (actions.some((a) => (a.get(turn) ?? 'ended') !== first)) return turn;
  }
  return null;
}

/** JSON with object keys sorted, so equal actions compare equal whatever their key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

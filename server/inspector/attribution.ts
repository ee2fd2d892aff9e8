// Who failed an episode (issue 30): the agent, the customer simulator, the environment or the
// infrastructure, read from the event log, the reward breakdown and the stored infrastructure
// failure. Pure; the first rule that applies decides (the order below is the decision).

import type { EpisodeEvent, RewardBreakdown } from '../engine/types';
import { failingEvidence, terminationOf } from './group-cause';

export type FailureParty = 'agent' | 'customer' | 'environment' | 'infrastructure' | 'none';

export type FailureReason =
  // infrastructure: the model endpoint (server/models InfraKind)
  | 'timeout'
  | 'http'
  | 'connection'
  | 'bad_response'
  | 'config'
  | 'infra_other'
  // environment
  | 'replay_mismatch'
  | 'tool_internal_error'
  // customer simulator
  | 'goal_changed_at_end'
  // agent
  | 'format'
  | 'safety'
  | 'tool_misuse'
  | 'hallucination'
  | 'no_answer'
  | 'wrong_answer'
  // none
  | 'passed'
  | 'not_scored';

export interface AttributionInput {
  events: readonly EpisodeEvent[];
  breakdown: RewardBreakdown | null;
  /** The episode's infraError as stored by server/models (kind: timeout, http, …). */
  infraError: { kind: string; message: string; turn: number } | null;
  /** Set by a caller that replayed the stored actions and got other events or reward (what differed). */
  replayMismatch?: string | null;
}

export interface Attribution {
  party: FailureParty;
  reason: FailureReason;
  /** One line that says why, quoting the event or evidence it rests on. */
  detail: string;
  /** The agent turns it rests on (empty when none in particular). */
  turns: number[];
}

const INFRA_KINDS = new Set(['timeout', 'http', 'connection', 'bad_response', 'config']);

/** The engine records its own bug in a tool as `<tool>: internal error: …` (episode-tools.ts). */
const INTERNAL_ERROR = /^[^:]+: internal error: /;

export function attributeFailure(input: AttributionInput): Attribution {
  const { events, breakdown, infraError } = input;
  if (infraError)
    return {
      party: 'infrastructure',
      reason: INFRA_KINDS.has(infraError.kind) ? (infraError.kind as FailureReason) : 'infra_other',
      detail: `model endpoint failed at turn ${infraError.turn} (${infraError.kind}): ${infraError.message}`,
      turns: [infraError.turn],
    };
  if (input.replayMismatch)
    return { party: 'environment', reason: 'replay_mismatch', detail: input.replayMismatch, turns: [] };
  const calls = events.filter((e) => e.kind === 'tool_call');
  const internal = calls.find((e) => e.error !== null && INTERNAL_ERROR.test(e.error));
  if (internal)
    return { party: 'environment', reason: 'tool_internal_error', detail: internal.error!, turns: [internal.turn] };
  if (!breakdown) return { party: 'none', reason: 'not_scored', detail: 'the episode has no reward yet', turns: [] };
  if (breakdown.isCorrect) return { party: 'none', reason: 'passed', detail: 'the episode passed', turns: [] };

  const formatError = events.find((e) => e.kind === 'action_error');
  if (formatError || breakdown.hardFail === 'format_invalid')
    return {
      party: 'agent',
      reason: 'format',
      detail: formatError ? `unusable action: ${formatError.error}` : 'unusable action',
      turns: formatError ? [formatError.turn] : [],
    };
  if (breakdown.hardFail === 'safety_violation')
    return { party: 'agent', reason: 'safety', detail: 'the agent broke a safety rule', turns: [] };
  if (breakdown.hardFail === 'tool_invalid') {
    const failed = calls.filter((e) => e.error !== null);
    const last = failed.at(-1);
    return {
      party: 'agent',
      reason: 'tool_misuse',
      detail: last ? `a failed tool call in the final turn: ${last.error}` : 'a failed tool call in the final turn',
      turns: last ? [last.turn] : [],
    };
  }
  const lastTurn = Math.max(0, ...events.map((e) => e.turn));
  const goalChange = events.find(
    (e): e is Extract<EpisodeEvent, { kind: 'world_change' }> =>
      e.kind === 'world_change' && e.data.hidden === true && e.turn === lastTurn,
  );
  if (goalChange)
    return {
      party: 'customer',
      reason: 'goal_changed_at_end',
      detail: `the customer changed the goal at turn ${goalChange.turn} and the episode ended before the agent could act on it: ${goalChange.description}`,
      turns: [goalChange.turn],
    };
  if (breakdown.hallucinatedIds.length > 0) {
    const answer = events.findLast((e) => e.kind === 'answer');
    return {
      party: 'agent',
      reason: 'hallucination',
      detail: `recommended id(s) never retrieved: ${breakdown.hallucinatedIds.join(', ')}`,
      turns: answer ? [answer.turn] : [],
    };
  }
  if (!events.some((e) => e.kind === 'answer'))
    return {
      party: 'agent',
      reason: 'no_answer',
      detail: `no answer before the episode ended (${terminationOf(events) ?? 'not ended'})`,
      turns: [],
    };
  const line = decisiveFailingLine(breakdown);
  return {
    party: 'agent',
    reason: 'wrong_answer',
    detail: line?.text ?? 'the answer failed',
    turns: line?.turns ?? [],
  };
}

function decisiveFailingLine(breakdown: RewardBreakdown) {
  const text = failingEvidence(breakdown)[0];
  return text === undefined ? undefined : breakdown.evidence.task.find((e) => e.text === text);
}

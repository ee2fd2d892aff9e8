// Public types of the gym: what goes in (config, actions) and what comes out
// (observations, events, reward). The app, trainers and tests import these.

import type { AxisValues } from './difficulty';

export const ENV_IDS = ['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE', 'JOURNEY'] as const;
export type EnvId = (typeof ENV_IDS)[number];
/** The envs JOURNEY is made of (every env but JOURNEY). */
export type AtomicEnvId = Exclude<EnvId, 'JOURNEY'>;

export interface RewardWeights {
  task: number;
  eff: number;
  hall: number;
}
export const DEFAULT_WEIGHTS: RewardWeights = { task: 0.75, eff: 0.15, hall: 0.1 };

export interface EpisodeConfig {
  envId: EnvId;
  d: number;
  seed: number;
  axisOverrides?: Partial<AxisValues>;
  weights?: RewardWeights;
  /**
   * JOURNEY only: the atomic env ids it samples sub-tasks from, in order. Filled in when the episode
   * is created and stored with it, so an env added later does not change a stored JOURNEY's seeds.
   */
  journeyEnvs?: EnvId[];
  /**
   * The engine rules to play under (version.ts): absent for a new episode (the current rules);
   * a stored episode of an older version passes its own so it replays as it was played.
   */
  engineVersion?: number;
}

export interface ToolCall {
  name: string;
  args?: Record<string, unknown>;
}

/** One agent turn (SPEC §1). `answer` carries env-specific fields. */
export interface Action {
  assistant_message: string;
  tool_calls: ToolCall[];
  answer: ({ env: string; done: boolean } & Record<string, unknown>) | null;
}

export type UserAct = 'opening' | 'continue' | 'confirm' | 'clarify' | 'correct' | 'elaborate' | 'ragequit';

export type TerminationReason =
  'answered' | 'turn_budget' | 'user_quit' | 'format_invalid' | 'tool_invalid' | 'safety_violation' | 'aborted';

export interface ToolResult {
  name: string;
  args: unknown;
  /** null when the call failed */
  result: unknown;
  error: string | null;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments, derived from the tool's zod schema. */
  parameters: Record<string, unknown>;
}

/** What the agent sees. Never contains the hidden goal. */
export interface Observation {
  envId: EnvId;
  turn: number;
  /** The customer's latest message (opening at reset), or null after the final turn. */
  customerMessage: string | null;
  /** Results of the previous turn's tool calls, in order. */
  toolResults: ToolResult[];
  /** Tools available (sent at reset; repeated for convenience). */
  tools: ToolSpec[];
  budgets: { T_max: number; B_tool: number };
  done: boolean;
  /** Set when the previous action could not be used (the episode goes on when not done). */
  error?: string;
}

/** The event log is the episode: everything else is derived from it. */
export type EpisodeEvent =
  | { kind: 'customer_message'; turn: number; text: string; act: UserAct }
  | { kind: 'agent_message'; turn: number; text: string; raw?: string }
  | {
      kind: 'tool_call';
      turn: number;
      index: number;
      name: string;
      args: unknown;
      result: unknown;
      error: string | null;
    }
  | { kind: 'answer'; turn: number; answer: Record<string, unknown> }
  | { kind: 'world_change'; turn: number; description: string; data: Record<string, unknown> }
  | { kind: 'action_error'; turn: number; error: string; raw: string }
  | { kind: 'termination'; turn: number; reason: TerminationReason }
  | { kind: 'reward'; turn: number; breakdown: RewardBreakdown };

/** What a line of evidence states: the env's pass or fail, or one component of r_task (absent: an item's detail). */
export type EvidenceRole = 'verdict' | 'part';

export interface EvidenceItem {
  /** Human-readable statement, e.g. "cart key p1::p1_v_color_red matched 2 of 2". */
  text: string;
  /** Turns that earned or lost this part (1-based agent turns). */
  turns: number[];
  /** The part this line states cannot be a reason for a fail (evidence.ts explains per kind of line). */
  ok: boolean;
  /** Round 11; absent on an item's detail and on evidence stored before. */
  role?: EvidenceRole;
  /** Nesting under a parent line (RETURN's replacement, JOURNEY's sub-tasks); absent = 0. */
  depth?: number;
}

export interface TaskResult {
  rTask: number;
  isCorrect: boolean;
  /** Env-specific named scores (e.g. f1, precision, recall). */
  metrics: Record<string, number>;
  evidence: EvidenceItem[];
}

export interface RewardBreakdown {
  /** The reward rules this breakdown was computed under (REWARD_REVISION in reward.ts). */
  revision: number;
  total: number;
  preClip: number;
  rTask: number;
  rEff: number;
  rHall: number;
  weights: RewardWeights;
  isCorrect: boolean;
  hardFail: null | 'format_invalid' | 'tool_invalid' | 'safety_violation';
  turns: number;
  tUser: number;
  tEff: number;
  tMax: number;
  /** The efficiency reference T_ref = 4·n_sub (revision 2). */
  tRef: number;
  recommendedIds: string[];
  hallucinatedIds: string[];
  task: TaskResult;
  evidence: { task: EvidenceItem[]; eff: EvidenceItem[]; hall: EvidenceItem[] };
}

export interface StepResult {
  observation: Observation;
  /** 0 until the final step. */
  reward: number;
  done: boolean;
  /** Events appended by this step (or by reset). */
  events: EpisodeEvent[];
  termination: TerminationReason | null;
  breakdown: RewardBreakdown | null;
}

// What the episode service hands to tRPC, server actions and pages. Plain JSON
// (dates as ISO strings) so the same objects cross tRPC and server actions.
import type { z } from 'zod';
import { AppError, type ErrorCode } from '@/server/lib/errors';
import type { startSchema } from './inputs';
import type { AxisValues } from '@/server/engine/difficulty';
import type {
  Action,
  EnvId,
  EpisodeEvent,
  RewardBreakdown,
  RewardWeights,
  TerminationReason,
} from '@/server/engine/types';

export type EpisodeStatus = 'active' | 'done';

export interface HiddenGoal {
  envId: string;
  summary: string[];
  data: unknown;
  /** the opening's slots (which were omitted), when the engine provides them */
  slots?: unknown;
}

export interface EpisodeSummary {
  id: string;
  createdAt: string;
  updatedAt: string;
  envId: EnvId;
  d: number;
  seed: number;
  catalogId: string;
  status: EpisodeStatus;
  terminationReason: TerminationReason | null;
  reward: number | null;
  isCorrect: boolean | null;
  turn: number;
  player: string;
  /** the reward revision the stored reward was computed under (issue 7.1) */
  rewardRevision: number;
  /** the player revealed the hidden goal while the episode was active (left out of statistics by default) */
  revealed: boolean;
  /** issue 9: the episode this one was forked from, and at which turn */
  parentId: string | null;
  forkTurn: number | null;
  /** issue 9: the batch run that played it */
  runId: string | null;
  /** issue 9: the last model turn failed in the infrastructure (timeout, HTTP, …): not the agent's doing, not scored */
  infraError: InfraFailure | null;
}

export interface InfraFailure {
  kind: string;
  message: string;
  turn: number;
}

export interface EpisodeView extends EpisodeSummary {
  axisOverrides: Partial<AxisValues>;
  axes: AxisValues;
  weights: RewardWeights | null;
  breakdown: RewardBreakdown | null;
  budgets: { T_max: number; B_tool: number };
  events: EpisodeEvent[];
  /** For human inspectors (playground reveal toggle, replay). Never part of an agent observation. */
  hiddenGoal: HiddenGoal;
  /** issue 9 item 8: the connection that rewrites the customer's text (null = templates only) */
  customerVoice?: string | null;
  /** what the LLM customer said in place of each templated customer message, as recorded */
  customerRewrites?: CustomerRewrite[];
}

/** One customer message as the LLM customer rewrote it, or why the template was kept. */
export interface CustomerRewrite {
  turn: number;
  /** the engine's templated text (what the rewriter was given, and all it was given) */
  template: string;
  /** what the agent seat reads */
  text: string;
  by: string;
  fallback: string | null;
}

/** The LLM customer, injected into the episode service (server/models/customer-voice.ts). */
export interface CustomerVoice {
  /** Throws one precise error when the named voice cannot be used (no such connection). */
  check(name: string): Promise<void>;
  /** Never throws: a failure keeps the template and says why. */
  rewrite(name: string, template: string): Promise<{ text: string; by: string; fallback?: string; record?: unknown }>;
}

/** Agent-visible world state for the playground's side panel (from the live episode). */
export type WorldView = Record<string, unknown> & { today?: string; cart?: unknown };

export type StartEpisodeInput = z.input<typeof startSchema>;

export type ActionInput = string | Action;

/** The service's errors: an AppError (recognised by code across bundles, see server/lib/errors). */
export class EpisodeServiceError extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(code, message);
    this.name = 'EpisodeServiceError';
  }
}

/** The columns that say which episode it is: what it was started with (store rows and imports share them). */
export interface EpisodeSetup {
  envId: string;
  d: number;
  seed: number;
  axisOverrides: Partial<AxisValues>;
  axes: AxisValues;
  weights: RewardWeights | null;
  catalogId: string;
}

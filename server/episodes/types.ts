// What the episode service hands to tRPC, server actions and pages. Plain JSON
// (dates as ISO strings) so the same objects cross tRPC and server actions.
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
}

/** Agent-visible world state for the playground's side panel (from the live episode). */
export type WorldView = Record<string, unknown> & { today?: string; cart?: unknown };

export interface StartEpisodeInput {
  envId: string;
  d: number;
  seed?: number | null;
  axisOverrides?: Partial<AxisValues>;
  catalogId?: string;
  player?: string;
}

export type ActionInput = string | Action;

export type ServiceErrorCode =
  | 'BAD_INPUT'
  | 'TOO_LARGE'
  | 'NOT_FOUND'
  | 'EPISODE_DONE'
  | 'CONFLICT'
  | 'REPLAY_MISMATCH'
  /** played under engine rules this engine no longer has (server/engine/version.ts) */
  | 'REPLAY_UNSUPPORTED';

export class EpisodeServiceError extends Error {
  constructor(
    public readonly code: ServiceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EpisodeServiceError';
  }
}

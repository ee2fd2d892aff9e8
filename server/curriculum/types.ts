// What the curriculum service hands to tRPC, pages and the CLI (plain JSON, ISO dates).
import type { CollectionId, CurriculumState, EnvSummary, hTimeline } from '@/server/engine/curriculum';
import type { EnvId } from '@/server/engine/types';
import type { EpisodeSummary } from '@/server/episodes/types';

export interface CurriculumRunSummary {
  id: string;
  name: string;
  collection: CollectionId;
  createdAt: string;
  updatedAt: string;
  episodes: number;
  windows: Array<{ envId: EnvId; l: number; h: number }>;
}

export interface CurriculumRunView extends CurriculumRunSummary {
  seed: number;
  catalogId: string;
  state: CurriculumState;
  /** Per env: window, counters at h, recent pass rate. */
  envs: EnvSummary[];
  /** h of every env at each change point, for the chart. */
  timeline: ReturnType<typeof hTimeline>;
  /** Envs of the collection the engine can run now; the others are not played yet. */
  playable: EnvId[];
  /** The run's latest stored episodes, newest first. */
  recentEpisodes: EpisodeSummary[];
  /** pass rate and mean reward over the stored episodes, in slices (the progress chart) */
  outcomes: Array<{ episode: number; passRate: number; meanReward: number }>;
  storedEpisodes: number;
}

export interface CreateRunInput {
  name?: string;
  collection: string;
  seed?: number | null;
  catalogId?: string;
  sampling?: 'uniform' | 'round_robin';
}

export interface StepRunInput {
  episodes: number;
  /** a built-in agent ("oracle", "agent:heuristic") or a connected model ("connection:<name>") */
  agent?: string;
  /** Store every episode (events + actions) so it shows in /episodes (default true). */
  storeEpisodes?: boolean;
  /** G: rollouts of each task, one GRPO group (1–16, default 1); `episodes` is rounded up to whole groups */
  rolloutsPerTask?: number;
  /** the player's sampling temperature (0–2; absent: a connection's own, a built-in agent's 0) */
  temperature?: number;
}

export interface StepRunResult {
  run: CurriculumRunView;
  played: number;
  passed: number;
  meanReward: number | null;
  /** Window changes during this call. */
  moves: Array<{ episode: number; envId: EnvId; l: number; h: number }>;
  skippedEnvs: EnvId[];
  /** stopped early by cancel() */
  cancelled: boolean;
  /** the infrastructure failure (a model not reached) that stopped the step; that episode is not scored */
  infra: { kind: string; message: string; turn: number; envId: EnvId; d: number; seed: number } | null;
}

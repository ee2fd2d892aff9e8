// Our operation results in OpenEnv's response models (openenv/core/env_server/types.py), which
// forbid extra fields: ResetResponse / StepResponse are exactly {observation, reward, done}, so
// what is ours (episode id, capability token, env, d, seed, run, termination, reward parts) moves
// into the observation's `metadata` (OpenEnv's Observation has that field for it); the state's
// extras stay beside episode_id and step_count (OpenEnv's State allows extra fields). The map is
// documented in docs/env-server.md ("OpenEnv mapping"). Production mode never carries the seed.

import type { z } from 'zod';
import type { ServerMode } from './config';
import type { agentStateSchema, rewardPartsSchema, wireMetadataSchema } from './schemas';
import type { StepResult } from '@/server/engine';
import type { LiveEpisode } from '@/server/episodes/live';

/** What GET /state answers for an episode's capability token (the admin token adds the goal, simulation mode only). */
export type AgentState = z.infer<typeof agentStateSchema>;
type WireMetadata = z.infer<typeof wireMetadataSchema>;

export function agentState({ id, config, run, episode: e }: LiveEpisode): AgentState {
  const { envId: env, d, seed } = config;
  const reward = e.breakdown ? e.breakdown.total : null;
  return {
    episode_id: id,
    step_count: e.turn,
    env,
    d,
    seed,
    run,
    turn: e.turn,
    t_max: e.tMax,
    done: e.done,
    termination: e.termination,
    reward,
  };
}

/** Our flat answer to a step; on the wire its extras move into the observation's metadata. */
export interface StepResponse {
  episode_id: string;
  observation: StepResult['observation'];
  reward: number;
  done: boolean;
  termination: string | null;
  reward_parts: z.infer<typeof rewardPartsSchema> | null;
}

export interface ResetResponse extends StepResponse {
  token: string;
  env: string;
  d: number;
  seed: number;
  run: string | null;
  /** echoed when sent: what the episode was recorded under */
  train_step?: number;
  group?: string;
}

/** OpenEnv's ResetResponse / StepResponse (and the WebSocket observation frame's data). */
export interface WireResult {
  observation: Record<string, unknown>;
  reward: number;
  done: boolean;
}

/**
 * The engine's observation with `metadata` added, its properties copied as they are: the tool
 * specs stay behind the engine's copy-on-read getter (no deep copy made per step).
 */
function withMetadata(observation: object, metadata: WireMetadata): Record<string, unknown> {
  const out = Object.defineProperties({}, Object.getOwnPropertyDescriptors(observation));
  Object.defineProperty(out, 'metadata', { value: metadata, enumerable: true, writable: true, configurable: true });
  return out as Record<string, unknown>;
}

export function wireStep(r: StepResponse): WireResult {
  return {
    observation: withMetadata(r.observation, {
      episode_id: r.episode_id,
      termination: r.termination,
      reward_parts: r.reward_parts,
    }),
    reward: r.reward,
    done: r.done,
  };
}

export function wireReset(r: ResetResponse, mode: ServerMode): WireResult {
  const metadata: WireMetadata = {
    episode_id: r.episode_id,
    token: r.token,
    env: r.env,
    d: r.d,
    ...(mode === 'simulation' ? { seed: r.seed } : {}),
    run: r.run,
    train_step: r.train_step,
    group: r.group,
    termination: r.termination,
    reward_parts: r.reward_parts,
  };
  return { observation: withMetadata(r.observation, metadata), reward: r.reward, done: r.done };
}

/** The state as sent: production mode leaves the seed out (the server keeps it). */
export function wireState<S extends Partial<AgentState>>(state: S, mode: ServerMode): S {
  if (mode === 'simulation') return state;
  const { seed: _seed, ...rest } = state;
  return rest as S;
}

/** OpenEnv's State for a call that names no episode: what a fresh environment reports. */
export const NO_EPISODE_STATE = { episode_id: null, step_count: 0 } as const;

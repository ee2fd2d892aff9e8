// Our operation results in OpenEnv's response models (openenv/core/env_server/types.py), which
// forbid extra fields: ResetResponse / StepResponse are exactly {observation, reward, done}, so
// what is ours (episode id, capability token, env, d, seed, run, termination, reward parts) moves
// into the observation's `metadata` (OpenEnv's Observation has that field for it); the state's
// extras stay beside episode_id and step_count (OpenEnv's State allows extra fields). The map is
// documented in docs/env-server.md ("OpenEnv mapping"). Production mode never carries the seed.

import type { z } from 'zod';
import type { ServerMode } from './config';
import type { agentStateSchema, rewardPartsSchema, wireMetadataSchema } from './schemas';
import type { StepResult, ToolSpec } from '@/server/engine';
import { getEnv } from '@/server/engine/envs/registry';
import { getTool } from '@/server/engine/tools';
import { toolSpec } from '@/server/engine/tools/registry';
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

/** The observation as sent: the engine's fields and our metadata; `tools` in a reset's answer only. */
export type WireObservation = Omit<StepResult['observation'], 'tools'> & {
  tools?: readonly ToolSpec[];
  metadata: WireMetadata;
};

/** OpenEnv's ResetResponse / StepResponse (and the WebSocket observation frame's data). */
export interface WireResult {
  observation: WireObservation;
  reward: number;
  done: boolean;
}

/** An env's tool specs: the engine's frozen ones, which its episodes' observations carry (no copy). */
const toolsOf = (envId: string): readonly ToolSpec[] => getEnv(envId).tools.map((name) => toolSpec(getTool(name)));

/**
 * One object per answer. An episode's tools never change (JOURNEY's are every sub-task's from
 * the start), so only the reset's answer lists them: they were ~85 % of each step's bytes. The
 * engine's own `tools` (a copy-on-read getter) is not read, so no answer deep-copies the specs.
 * An undefined field is left out by JSON.stringify.
 */
function wireObservation(o: StepResult['observation'], metadata: WireMetadata, reset: boolean): WireObservation {
  return {
    envId: o.envId,
    turn: o.turn,
    customerMessage: o.customerMessage,
    toolResults: o.toolResults,
    tools: reset ? toolsOf(o.envId) : undefined,
    budgets: o.budgets,
    done: o.done,
    error: o.error,
    metadata,
  };
}

export function wireStep(r: StepResponse): WireResult {
  const metadata = { episode_id: r.episode_id, termination: r.termination, reward_parts: r.reward_parts };
  return { observation: wireObservation(r.observation, metadata, false), reward: r.reward, done: r.done };
}

/** A reset's answer, or the first answer of an episode started by a step without one (http.ts). */
export function wireReset(r: ResetResponse, mode: ServerMode): WireResult {
  const metadata: WireMetadata = {
    episode_id: r.episode_id,
    token: r.token,
    env: r.env,
    d: r.d,
    seed: mode === 'simulation' ? r.seed : undefined,
    run: r.run,
    train_step: r.train_step,
    group: r.group,
    termination: r.termination,
    reward_parts: r.reward_parts,
  };
  return { observation: wireObservation(r.observation, metadata, true), reward: r.reward, done: r.done };
}

/** The state as sent: production mode leaves the seed out (the server keeps it). */
export function wireState<S extends Partial<AgentState>>(state: S, mode: ServerMode): S {
  if (mode === 'simulation') return state;
  const { seed: _seed, ...rest } = state;
  return rest as S;
}

/** OpenEnv's State for a call that names no episode: what a fresh environment reports. */
export const NO_EPISODE_STATE = { episode_id: null, step_count: 0 } as const;

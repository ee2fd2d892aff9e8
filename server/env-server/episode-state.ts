// What GET /state (and the WebSocket `state`) answers about a held episode: the agent-visible
// state for its capability token, and the inspector-side state (hidden goal, world, events) for
// the admin token in simulation mode only.
import type { EnvServerConfig } from './config';
import { EnvServerError } from './errors';
import type { LiveEpisode } from './sessions';

export interface AgentState {
  episode_id: string;
  step_count: number;
  env: string;
  d: number;
  seed: number;
  run: string | null;
  turn: number;
  t_max: number;
  done: boolean;
  termination: string | null;
  reward: number | null;
}

export function agentState(live: LiveEpisode): AgentState {
  const e = live.episode;
  return {
    episode_id: live.id,
    step_count: e.turn,
    env: live.config.envId,
    d: live.config.d,
    seed: live.config.seed,
    run: live.run,
    turn: e.turn,
    t_max: e.tMax,
    done: e.done,
    termination: e.termination,
    reward: e.breakdown ? e.breakdown.total : null,
  };
}

/** Inspector-side state: the hidden goal, axes, world, events and reward evidence. */
export function adminState(live: LiveEpisode, mode: EnvServerConfig['mode']) {
  if (mode === 'production')
    throw new EnvServerError(
      'PRODUCTION_MODE',
      'the full state (hidden goal, events) is simulation control; this server runs in production mode',
      live.id,
    );
  const e = live.episode;
  return {
    ...agentState(live),
    hidden_goal: e.hiddenGoal(),
    axes: e.axes,
    world: e.world(),
    events: e.events,
    breakdown: e.breakdown,
  };
}

// The built-in agents, at the table (table.ts) and behind the agent server (scripts/agent-server/).
// Heuristic and random need only the conversation (replayed from the first observation; see
// HeuristicDrivers); the oracle reads the hidden goal, so the agent server serves it only when started
// with --allow-oracle and the request carries the episode's config in a header, from which the
// episode is rebuilt in-process by replaying the actions.

import {
  createRandomAgent,
  oracleAgent,
  replayEpisode,
  type Action,
  type Catalog,
  type EnvId,
  type EpisodeConfig,
  type Episode,
  type Observation,
} from '@/server/engine';
import { createHeuristicEpisodeAgent } from '@/server/engine/agents/heuristic';
import { hashString, Rng } from '@/server/engine/random';
import type { ActionMode } from './connection';

/** What an agent decides from: the agent seat's observations and the actions already taken. */
export interface Conversation {
  envId: EnvId;
  mode: ActionMode;
  /** observations[k] is what the agent saw before its turn k+1; the last one is the turn to decide now. */
  observations: Observation[];
  actions: Array<Action | string>;
}

export const BUILT_IN_AGENTS = ['oracle', 'heuristic', 'random'] as const;
export type BuiltInAgent = (typeof BUILT_IN_AGENTS)[number];
export const isBuiltInAgent = (name: string): name is BuiltInAgent =>
  (BUILT_IN_AGENTS as readonly string[]).includes(name);

export class AgentRequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export type HeuristicDriver = (observation: Observation) => Action;

/**
 * Heuristic drivers kept between requests, by the observations they have read (the agent server's
 * DriverCache). Only an optimisation: a miss replays from the first observation, which gives the
 * same action because the heuristic reads nothing but its observations.
 */
export interface HeuristicDrivers {
  take(observations: Observation[]): HeuristicDriver | undefined;
  put(observations: Observation[], driver: HeuristicDriver): void;
}

export interface AgentContext {
  /** Heuristic drivers to continue (none: replay every request from the first turn). */
  cache?: HeuristicDrivers;
  /** From the X-EcomRLVE-Episode header, when sent. */
  episodeConfig: EpisodeConfig | null;
  allowOracle: boolean;
  catalog: () => Catalog;
  randomSeed: number;
  /** The oracle's episode when the caller plays it in-process already (else rebuilt by replay). */
  episode?: Episode;
  sampling?: Sampling;
}

/**
 * Sampling (a request's temperature and seed; a group's rollout): each turn, with probability
 * temperature / 2 (absent: 0), the random agent seeded with `seed` acts instead. Drawn per (seed,
 * episode, turn), so the rollouts of a GRPO group (one seed each) differ yet each one replays.
 */
export interface Sampling {
  temperature?: number;
  seed: number;
}

/** The public config that keys seeded agents: the header's, else one derived from the opening message. */
function publicConfig(conversation: Conversation, ctx: AgentContext) {
  const opening = conversation.observations[0].customerMessage ?? '';
  return ctx.episodeConfig ?? { envId: conversation.envId, d: 0, seed: hashString(opening) };
}

/** The random agent's action for the last observation, its stream keyed by `seed` and the episode. */
function randomAction(conversation: Conversation, ctx: AgentContext, seed: number): Action {
  // The in-process random agent keys its stream by the episode's public config; without the
  // header the opening message stands in for it (reproducible, but not the in-process stream).
  const agent = createRandomAgent(seed);
  const stand = { config: publicConfig(conversation, ctx) } as unknown as Episode;
  let action: Action | undefined;
  for (const observation of conversation.observations) action = agent.act(observation, stand);
  return action!;
}

export function decide(agent: BuiltInAgent, conversation: Conversation, ctx: AgentContext): Action {
  const own = decideOwn(agent, conversation, ctx);
  const { temperature = 0, seed } = ctx.sampling ?? { seed: 0 };
  if (temperature <= 0) return own;
  const { envId, d, seed: episodeSeed } = publicConfig(conversation, ctx);
  const turn = conversation.observations.length;
  const explore = Rng.from('sampling', seed, envId, d, episodeSeed, turn).bernoulli(Math.min(1, temperature / 2));
  return explore ? randomAction(conversation, ctx, seed) : own;
}

function decideOwn(agent: BuiltInAgent, conversation: Conversation, ctx: AgentContext): Action {
  const { envId, observations } = conversation;
  if (ctx.episodeConfig && ctx.episodeConfig.envId !== envId)
    throw new AgentRequestError(`the episode header says env ${ctx.episodeConfig.envId}, the conversation is ${envId}`);
  switch (agent) {
    case 'heuristic': {
      const cached = ctx.cache?.take(observations.slice(0, -1));
      const act = cached ?? createHeuristicEpisodeAgent(envId);
      let action: Action | undefined;
      for (const observation of cached ? observations.slice(-1) : observations) action = act(observation);
      ctx.cache?.put(observations, act);
      return action!;
    }
    case 'random':
      return randomAction(conversation, ctx, ctx.randomSeed);
    case 'oracle': {
      if (!ctx.allowOracle)
        throw new AgentRequestError(
          'the oracle reads the hidden goal: start the server with --allow-oracle to serve it',
          403,
        );
      if (!ctx.episodeConfig)
        throw new AgentRequestError('the oracle needs the episode config in the X-EcomRLVE-Episode header');
      const episode = ctx.episode ?? replayEpisode(ctx.episodeConfig, ctx.catalog(), conversation.actions);
      return oracleAgent.act(observations[observations.length - 1], episode);
    }
  }
}

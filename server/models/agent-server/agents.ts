// The built-in agents behind the agent server. Heuristic and random need only
// the conversation (replayed from the first observation; see DriverCache); the
// oracle reads the hidden goal, so it is served only when the server was started
// with --allow-oracle and the request carries the episode's config in a header,
// from which the server rebuilds the episode in-process by replaying the actions.

import { createHash } from 'node:crypto';
import {
  createRandomAgent,
  oracleAgent,
  replayEpisode,
  type Action,
  type Catalog,
  type EpisodeConfig,
  type Episode,
  type Observation,
} from '@/server/engine';
import { createHeuristicEpisodeAgent } from '@/server/engine/agents/heuristic';
import { hashString } from '@/server/engine/random';
import type { Reconstructed } from './reconstruct';

export const SERVED_AGENTS = ['heuristic', 'random', 'oracle'] as const;
export type ServedAgent = (typeof SERVED_AGENTS)[number];

export class AgentRequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

type HeuristicDriver = (observation: Observation) => Action;

/**
 * Heuristic drivers left after their last turn, keyed by the observations they have read. Only an
 * optimisation (a long JOURNEY would otherwise be replayed from turn 1 on every request): a miss
 * replays from the first observation, which gives the same action because the heuristic reads
 * nothing but its observations.
 */
export class DriverCache {
  private readonly drivers = new Map<string, HeuristicDriver>();
  constructor(private readonly size: number) {}

  static key(observations: Observation[]): string {
    const seen = observations.map((o) => [o.envId, o.turn, o.budgets, o.customerMessage, o.toolResults]);
    return createHash('sha256').update(JSON.stringify(seen)).digest('hex');
  }
  take(key: string): HeuristicDriver | undefined {
    const driver = this.drivers.get(key);
    this.drivers.delete(key);
    return driver;
  }
  put(key: string, driver: HeuristicDriver) {
    if (this.size <= 0) return;
    this.drivers.set(key, driver);
    while (this.drivers.size > this.size) this.drivers.delete(this.drivers.keys().next().value!);
  }
}

export interface AgentContext {
  /** Heuristic drivers to continue (none: replay every request from the first turn). */
  cache?: DriverCache;
  /** From the X-EcomRLVE-Episode header, when sent. */
  episodeConfig: EpisodeConfig | null;
  allowOracle: boolean;
  catalog: () => Catalog;
  randomSeed: number;
  /** The oracle's episode when the caller plays it in-process already (else rebuilt by replay). */
  episode?: Episode;
}

export function decide(agent: ServedAgent, conversation: Reconstructed, ctx: AgentContext): Action {
  const { envId, observations } = conversation;
  if (ctx.episodeConfig && ctx.episodeConfig.envId !== envId)
    throw new AgentRequestError(`the episode header says env ${ctx.episodeConfig.envId}, the conversation is ${envId}`);
  switch (agent) {
    case 'heuristic': {
      const cached = ctx.cache?.take(DriverCache.key(observations.slice(0, -1)));
      const act = cached ?? createHeuristicEpisodeAgent(envId);
      let action: Action | undefined;
      for (const observation of cached ? observations.slice(-1) : observations) action = act(observation);
      ctx.cache?.put(DriverCache.key(observations), act);
      return action!;
    }
    case 'random': {
      // The in-process random agent keys its stream by the episode's public config; without the
      // header the opening message stands in for it (reproducible, but not the in-process stream).
      const config = ctx.episodeConfig ?? { envId, d: 0, seed: hashString(observations[0].customerMessage ?? '') };
      const agent = createRandomAgent(ctx.randomSeed);
      const stand = { config } as unknown as Episode;
      let action: Action | undefined;
      for (const observation of observations) action = agent.act(observation, stand);
      return action!;
    }
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

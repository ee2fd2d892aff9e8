// The heuristic agent (SPEC §11): no hidden information, only what it reads in
// observations. One strategy per environment (this folder), chosen by the
// observation's envId; its memory lives per episode.

import type { Episode } from '../../episode';
import { JOURNEY_ENV_IDS } from '../../envs/registry';
import type { Action, EnvId, Observation, ToolResult } from '../../types';
import type { Agent } from '../types';
import { createBundleStrategy } from './bundle';
import { createCartStrategy } from './cart';
import { createJourneyStrategy } from './journey';
import { createPdStrategy } from './pd';
import { createPolicyStrategy } from './policy';
import { createReturnStrategy } from './return';
import { createStatusStrategy } from './status';
import { createSubStrategy } from './sub';
import type { Strategy } from './types';

export const STRATEGY_FACTORIES: Record<EnvId, () => Strategy> = {
  CART: createCartStrategy,
  PD: createPdStrategy,
  SUB: createSubStrategy,
  BUNDLE: createBundleStrategy,
  RETURN: createReturnStrategy,
  STATUS: createStatusStrategy,
  POLICY: createPolicyStrategy,
  JOURNEY: () => createJourneyStrategy(createStrategy, () => JOURNEY_ENV_IDS),
};

/** A fresh strategy for one (sub-)task of an environment. */
export function createStrategy(envId: EnvId): Strategy {
  return STRATEGY_FACTORIES[envId]();
}

/** One episode's driver: feeds each observation to the env's strategy and wraps its output as an action. */
export function createHeuristicEpisodeAgent(envId: EnvId): (observation: Observation) => Action {
  const strategy = createStrategy(envId);
  let lastMessage = '';
  return (observation) => {
    lastMessage = observation.customerMessage ?? lastMessage;
    const out = strategy.step({
      message: lastMessage,
      results: observation.toolResults as ToolResult[],
      turnsLeft: observation.budgets.T_max - observation.turn,
      budget: observation.budgets.B_tool,
    });
    const answer = out.answer ? ({ done: true, ...out.answer, env: envId } as Action['answer']) : null;
    // A last turn that does not answer ends the episode: a failing call there would make it
    // tool_invalid (−1), and a call's result could not be used anyway.
    const lastTurnWithoutAnswer = observation.budgets.T_max - observation.turn <= 1 && !answer;
    return { assistant_message: out.message, tool_calls: lastTurnWithoutAnswer ? [] : out.calls, answer };
  };
}

/** A heuristic agent; it keeps one memory per episode it plays. */
export function createHeuristicAgent(): Agent {
  const drivers = new WeakMap<Episode, (observation: Observation) => Action>();
  return {
    name: 'heuristic',
    act(observation, episode) {
      let driver = drivers.get(episode);
      if (!driver) drivers.set(episode, (driver = createHeuristicEpisodeAgent(observation.envId)));
      return driver(observation);
    },
  };
}

export const heuristicAgent: Agent = createHeuristicAgent();

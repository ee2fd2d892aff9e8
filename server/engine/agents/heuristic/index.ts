// The heuristic agent (SPEC §11): no hidden information, only what it reads in
// observations. One policy per environment (this folder), chosen by the
// observation's envId; its memory lives per episode.

import type { Episode } from '../../episode';
import { JOURNEY_ENV_IDS } from '../../envs/registry';
import type { Action, EnvId, Observation, ToolResult } from '../../types';
import type { Agent } from '../types';
import { createBundlePolicy } from './bundle';
import { createCartPolicy } from './cart';
import { createJourneyPolicy } from './journey';
import { createPdPolicy } from './pd';
import { createPolicyPolicy } from './policy';
import { createReturnPolicy } from './return';
import { createStatusPolicy } from './status';
import { createSubPolicy } from './sub';
import type { Policy } from './types';

export const POLICY_FACTORIES: Record<EnvId, () => Policy> = {
  CART: createCartPolicy,
  PD: createPdPolicy,
  SUB: createSubPolicy,
  BUNDLE: createBundlePolicy,
  RETURN: createReturnPolicy,
  STATUS: createStatusPolicy,
  POLICY: createPolicyPolicy,
  JOURNEY: () => createJourneyPolicy(createPolicy, () => JOURNEY_ENV_IDS),
};

/** A fresh policy for one (sub-)task of an environment. */
export function createPolicy(envId: EnvId): Policy {
  return POLICY_FACTORIES[envId]();
}

/** One episode's driver: feeds each observation to the env's policy and wraps its output as an action. */
export function createHeuristicEpisodeAgent(envId: EnvId): (observation: Observation) => Action {
  const policy = createPolicy(envId);
  let lastMessage = '';
  return (observation) => {
    lastMessage = observation.customerMessage ?? lastMessage;
    const out = policy.step({
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

// The oracle reads the hidden goal but acts only through tools and the answer,
// so its success proves each task is solvable through the agent's interface.
// One strategy per environment, in agents/oracle/.

import type { Episode } from '../episode';
import type { Action, EnvId } from '../types';
import { bundleOracle } from './oracle/bundle';
import { cartOracle } from './oracle/cart';
import { journeyOracle } from './oracle/journey';
import { pdOracle } from './oracle/pd';
import { policyOracle } from './oracle/policy';
import { returnOracle } from './oracle/return';
import { statusOracle } from './oracle/status';
import { subOracle } from './oracle/sub';
import type { Agent } from './types';

const STRATEGIES: Record<EnvId, (episode: Episode) => Action> = {
  PD: pdOracle,
  SUB: subOracle,
  CART: cartOracle,
  RETURN: returnOracle,
  STATUS: statusOracle,
  POLICY: policyOracle,
  BUNDLE: bundleOracle,
  JOURNEY: (episode) => journeyOracle(episode, STRATEGIES),
};

export const oracleAgent: Agent = {
  name: 'oracle',
  act(_observation, episode) {
    return STRATEGIES[episode.config.envId](episode);
  },
};

import type { Episode } from '../episode';
import type { Action, Observation } from '../types';

/** A built-in policy. Only the oracle may look at the episode's hidden goal. */
export interface Agent {
  name: string;
  act(observation: Observation, episode: Episode): Action;
}

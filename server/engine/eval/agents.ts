// The built-in agents and the goal-blind exploits by CLI name.

import { emptyAgent } from '../agents/empty';
import { exploitByName } from '../agents/exploits';
import { createHeuristicAgent } from '../agents/heuristic';
import { oracleAgent } from '../agents/oracle';
import { createRandomAgent } from '../agents/random';
import type { Agent } from '../agents/types';
import type { AgentName } from './args';

export function agentByName(name: AgentName, agentSeed = 0): Agent {
  switch (name) {
    case 'oracle':
      return oracleAgent;
    case 'heuristic':
      return createHeuristicAgent();
    case 'random':
      return createRandomAgent(agentSeed);
    case 'empty':
      return emptyAgent;
  }
  const exploit = exploitByName(name);
  if (!exploit) throw new Error(`unknown agent "${name}"`);
  return exploit;
}

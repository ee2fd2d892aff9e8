// The gym's public API. Trainers, the CLI, tests and the app import from here.

import { z } from 'zod';
import { plainCopy } from './copy';
import { availableEnvs, getEnv } from './envs/registry';
import { getTool } from './tools';
import { toolSpec } from './tools/registry';
import type { EnvId, ToolSpec } from './types';

export { Episode } from './episode';
export { createEpisode, playEpisode, replayEpisode } from './play';
export { parseAction, MAX_ACTION_CHARS } from './action';
export { REWARD_REVISION } from './reward';
export { AXES, AXIS_NAMES, axesFor, envKnobs, type AxisValues, type AxisName } from './difficulty';
export { oracleAgent } from './agents/oracle';
export { createRandomAgent, randomAgent, type RandomAgentOptions } from './agents/random';
export { emptyAgent } from './agents/empty';
export { createHeuristicAgent, heuristicAgent } from './agents/heuristic';
export type { Agent } from './agents/types';
export type { Catalog, Product } from './catalog/types';
export * from './types';

export interface EnvInfo {
  id: EnvId;
  name: string;
  description: string;
  /** JSON Schema of the answer fields besides env and done. */
  answerSchema: Record<string, unknown>;
  tools: string[];
}

export function listEnvs(): EnvInfo[] {
  return availableEnvs().map((env) => {
    const schema = z.toJSONSchema(env.answerSchema, { io: 'input' }) as Record<string, unknown>;
    delete schema.$schema;
    return { id: env.id, name: env.name, description: env.description, answerSchema: schema, tools: [...env.tools] };
  });
}

export function toolSpecsFor(envId: string): ToolSpec[] {
  return getEnv(envId).tools.map((name) => plainCopy(toolSpec(getTool(name)!)));
}
export type * from './tool-results';

// The gym's public API. Trainers, the CLI, tests and the app import from here.
// Nothing inside server/engine imports this file (that would make a cycle): modules import
// what they need from its source (envs/registry, play, agents/…).

export { Episode } from './episode';
export { createEpisode, playEpisode, replayEpisode } from './play';
export { parseAction, MAX_ACTION_CHARS } from './action';
export { ENGINE_VERSION, REPLAYABLE_VERSIONS, replayRefusal } from './version';
export { REWARD_REVISION } from './reward';
export { sameEventButEvidence, withoutEvidence } from './evidence-replay';
export { AXES, AXIS_NAMES, axesFor, envKnobs, type AxisValues, type AxisName } from './difficulty';
export { listEnvs, toolSpecsFor, type EnvInfo } from './envs/registry';
export { oracleAgent } from './agents/oracle';
export { createRandomAgent, randomAgent, type RandomAgentOptions } from './agents/random';
export { emptyAgent } from './agents/empty';
export { createHeuristicAgent, heuristicAgent } from './agents/heuristic';
export type { Agent } from './agents/types';
export type { Catalog, Product } from './catalog/types';
export * from './types';
export type * from './tool-results';
export type { ToolName } from './tools';

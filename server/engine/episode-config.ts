// An episode's config as it is recorded, and the key of its random streams.

import { frozenCopy } from './copy';
import { JOURNEY_ENV_IDS } from './envs/registry';
import { DEFAULT_WEIGHTS, type EpisodeConfig } from './types';
import { ENGINE_VERSION, replayRefusal } from './version';

/** The config with its defaults filled in, frozen; throws one precise error for a bad seed or weight. */
export function recordedConfig(config: EpisodeConfig): EpisodeConfig {
  if (!Number.isSafeInteger(config.seed)) throw new Error(`seed must be an integer, got ${String(config.seed)}`);
  if (config.engineVersion !== undefined) {
    const refusal = Number.isInteger(config.engineVersion) ? replayRefusal(config.engineVersion, config.envId) : '';
    if (refusal !== null)
      throw new Error(refusal || `engineVersion must be an integer, got ${String(config.engineVersion)}`);
  }
  const weights = config.weights ?? DEFAULT_WEIGHTS;
  for (const part of ['task', 'eff', 'hall'] as const)
    if (typeof weights[part] !== 'number' || !Number.isFinite(weights[part]))
      throw new Error(`reward weight "${part}" must be a finite number, got ${String(weights[part])}`);
  // JOURNEY records the envs it draws from, so an env added later leaves its seeds alone
  const journeyEnvs = config.envId === 'JOURNEY' ? { journeyEnvs: [...(config.journeyEnvs ?? JOURNEY_ENV_IDS)] } : {};
  return frozenCopy(Object.assign({}, config, { weights }, journeyEnvs));
}

/** The rule version an episode plays under: its recorded one, else the current engine's. */
export const rulesOf = (config: EpisodeConfig): number => config.engineVersion ?? ENGINE_VERSION;

const stableKey = (o: object | undefined) =>
  JSON.stringify(Object.entries(o ?? {}).sort(([a], [b]) => a.localeCompare(b)));

/** Every random stream of the episode is derived from this key (env, d, seed, axis overrides). */
export function streamKeyOf(config: EpisodeConfig): string {
  return [config.envId, config.d, config.seed, stableKey(config.axisOverrides)].join('|');
}

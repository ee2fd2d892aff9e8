// Shared by the env-server tests: a service over the engine's test catalog, the secrets of an
// episode's hidden goal (the rule of server/engine/properties.test.ts), and oracle actions.

import {
  createEpisode,
  createRandomAgent,
  oracleAgent,
  type Action,
  type EnvId,
  type Episode,
  type EpisodeConfig,
} from '@/server/engine';
import { goalSecrets, testCatalog } from '@/server/engine/testing';
import { DEFAULTS, type EnvServerConfig } from '../config';
import { catalogSessions, createEnvService, type EnvService } from '../protocol';
import { LiveEpisodes } from '@/server/episodes/live';
import { createTokenService } from '@/server/episodes/tokens';

export const ADMIN = 'test-admin-token';

export function testConfig(overrides: Partial<EnvServerConfig> = {}): EnvServerConfig {
  return {
    ...DEFAULTS,
    port: 0,
    persist: false,
    workers: 1,
    catalogId: testCatalog().id,
    adminToken: ADMIN,
    tokenSecret: 'test-secret',
    ...overrides,
  };
}

export function makeService(overrides: Partial<EnvServerConfig> = {}, now?: () => number) {
  const config = testConfig(overrides);
  const tokens = createTokenService({ secret: config.tokenSecret, adminToken: config.adminToken });
  const live = new LiveEpisodes({
    max: config.maxSessions,
    maxSetting: 'ECOMRLVE_MAX_SESSIONS',
    idleMs: config.idleTimeoutMs,
    evictRunning: false,
    now,
  });
  return createEnvService({ config, catalog: testCatalog(), sessions: catalogSessions(testCatalog(), live, tokens) });
}

export interface OracleRun {
  episode: Episode;
  actions: Action[];
  /** JSON of each observation, reset first. */
  observations: string[];
  /** The same as a transport sends them (metadata aside): the tools in the reset's answer only. */
  sent: string[];
  rewards: number[];
  /** Every goal secret seen during the episode (the goal may change mid-episode). */
  secrets: Set<string>;
}

/** The oracle plays one episode in-process: the reference every transport is compared with. */
export function oracleRun(config: EpisodeConfig): OracleRun {
  const episode = createEpisode(config, testCatalog());
  const first = episode.reset();
  const observations = [JSON.stringify(first.observation)];
  const rewards = [first.reward];
  const secrets = new Set(goalSecrets(episode));
  const actions: Action[] = [];
  let observation = first.observation;
  while (!episode.done) {
    const action = oracleAgent.act(observation, episode);
    actions.push(action);
    const r = episode.step(action);
    observation = r.observation;
    observations.push(JSON.stringify(r.observation));
    rewards.push(r.reward);
    for (const s of goalSecrets(episode)) secrets.add(s);
  }
  return { episode, actions, observations, sent: observations.map(asSent), rewards, secrets };
}

/** An observation's JSON (the i-th of an episode) as a transport sends it: a step's without the tools. */
export function asSent(json: string, i: number): string {
  return i === 0 ? json : JSON.stringify({ ...JSON.parse(json), tools: undefined });
}

/**
 * Plays one episode through a recording service at d 5, waiting for each answer to be durable:
 * the oracle, or a random agent with invalid and partial actions. Text and structured actions
 * alternate (both are replayed as stored). `stopAfter` leaves it running after that many steps;
 * `midway` runs after the first step.
 */
export async function playRecorded(
  service: EnvService,
  envId: EnvId,
  agent: 'oracle' | 'random',
  seed: number,
  { stopAfter = Infinity, midway }: { stopAfter?: number; midway?: (id: string) => Promise<unknown> } = {},
) {
  const { live, response } = service.reset({ env: envId, d: 5, seed });
  await service.durable(response);
  const random = createRandomAgent({ seed, pInvalid: 0.3, pPartialAnswer: 0.2 });
  let observation = response.observation;
  for (let i = 0; i < stopAfter && !live.episode.done; i++) {
    const action =
      agent === 'oracle' ? oracleAgent.act(observation, live.episode) : random.act(observation, live.episode);
    const r = service.stepLive(live, i % 2 ? JSON.stringify(action) : action);
    await service.durable(r);
    observation = r.observation;
    if (i === 0) await midway?.(live.id);
  }
  return live;
}

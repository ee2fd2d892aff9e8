// The golden episodes: a fixed plan of (catalog, env, d, seed, agent) episodes whose
// actions, observations, event logs and rewards are recorded once and replayed by
// golden.test.ts. They pin the engine's behaviour while its internals change (the
// speed work of issue 13): any difference in a reward, an observation or an event
// fails the test. When behaviour changes on purpose, re-record with
// `npm run golden:record` and say so in the commit (docs/engine.md, "Golden episodes").

import { createHash } from 'node:crypto';
import { createHeuristicAgent } from '../agents/heuristic';
import { oracleAgent } from '../agents/oracle';
import { createRandomAgent } from '../agents/random';
import type { Agent } from '../agents/types';
import type { Catalog } from '../catalog/types';
import { Episode } from '../episode';
import { withoutEvidence } from '../evidence-replay';
import { ENV_IDS, type Action, type EnvId, type EpisodeConfig } from '../types';

export type GoldenAgent = 'oracle' | 'heuristic' | 'random';

export interface GoldenCase {
  catalogSize: number;
  config: EpisodeConfig;
  agent: GoldenAgent;
}

/** One recorded episode: the actions to replay and a digest of everything it produced. */
export interface GoldenRecord extends GoldenCase {
  actions: Action[];
  reward: number;
  termination: string | null;
  /** sha256 of the observations, the event log and the breakdown (see `transcriptOf`). */
  digest: string;
  /**
   * sha256 of the same transcript with every evidence list left out (`behaviourDigestOf`):
   * everything a reward, an observation or an event carries except the evidence's wording. An
   * evidence-only re-record (`npm run golden:record -- --evidence-only`) keeps it as it was.
   */
  behaviourDigest: string;
}

export interface GoldenFile {
  /** How the fixtures were made, for whoever re-records them. */
  note: string;
  records: GoldenRecord[];
  /** Full transcripts of a few episodes, so a failure shows the first difference, not only a hash. */
  full: { index: number; transcript: Transcript }[];
}

export interface Transcript {
  observations: unknown[];
  events: unknown[];
  breakdown: unknown;
}

export const GOLDEN_AGENTS: readonly GoldenAgent[] = ['oracle', 'heuristic', 'random'];
/** Catalog sizes and the d values played on each: every env, several d, every agent (336 episodes). */
export const GOLDEN_PLAN: ReadonlyArray<{ catalogSize: number; ds: number[]; seeds: number[] }> = [
  { catalogSize: 1_000, ds: [0, 2, 4, 6, 8, 10, 12], seeds: [101] },
  { catalogSize: 20_000, ds: [0, 3, 6, 9, 12], seeds: [202] },
  // categories above the recommendation scan limit (the filtered-search + stride-sample pool)
  { catalogSize: 100_000, ds: [3, 9], seeds: [303] },
];

export function goldenCases(): GoldenCase[] {
  const out: GoldenCase[] = [];
  for (const { catalogSize, ds, seeds } of GOLDEN_PLAN)
    for (const envId of ENV_IDS as readonly EnvId[])
      for (const d of ds)
        for (const seed of seeds)
          for (const agent of GOLDEN_AGENTS) out.push({ catalogSize, config: { envId, d, seed: seed + d }, agent });
  return out;
}

function makeAgent(name: GoldenAgent, seed: number): Agent {
  if (name === 'oracle') return oracleAgent;
  if (name === 'heuristic') return createHeuristicAgent();
  return createRandomAgent({ seed, pInvalid: 0.1, pPartialAnswer: 0.2 });
}

// A plain-JSON copy (drops undefined fields, Maps become {}), as a trainer would receive it.
const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

export function transcriptOf(episode: Episode, observations: unknown[]): Transcript {
  return {
    observations: observations.map(plain),
    events: plain(episode.events) as unknown[],
    breakdown: plain(episode.breakdown),
  };
}

/** A transcript without the tool specs repeated in every observation (what the full fixtures store). */
export function compactTranscript(t: Transcript): Transcript {
  const strip = (o: unknown) => {
    const { tools: _tools, ...rest } = o as Record<string, unknown>;
    return rest;
  };
  return { ...t, observations: t.observations.map(strip) };
}

export function digestOf(t: Transcript): string {
  return createHash('sha256').update(JSON.stringify(t)).digest('hex');
}

/** The digest of a transcript with the evidence left out: what an evidence rewording must not change. */
export function behaviourDigestOf(t: Transcript): string {
  return createHash('sha256')
    .update(JSON.stringify(withoutEvidence(t)))
    .digest('hex');
}

/** Plays one golden case with its agent, keeping the actions. */
export function recordCase(c: GoldenCase, catalog: Catalog): { record: GoldenRecord; transcript: Transcript } {
  const agent = makeAgent(c.agent, c.config.seed);
  const episode = new Episode(c.config, catalog);
  let observation = episode.reset().observation;
  const observations: unknown[] = [plain(observation)];
  const actions: Action[] = [];
  while (!episode.done) {
    const action = agent.act(observation, episode);
    actions.push(plain(action) as Action);
    observation = episode.step(action).observation;
    observations.push(plain(observation));
  }
  const transcript = transcriptOf(episode, observations);
  return {
    record: {
      ...c,
      actions,
      reward: episode.breakdown!.total,
      termination: episode.termination,
      digest: digestOf(transcript),
      behaviourDigest: behaviourDigestOf(transcript),
    },
    transcript,
  };
}

/** Replays a record's actions (no agent involved) and returns what the engine produced now. */
export function replayRecord(r: GoldenRecord, catalog: Catalog): { episode: Episode; transcript: Transcript } {
  const episode = new Episode(r.config, catalog);
  const observations: unknown[] = [plain(episode.reset().observation)];
  for (const action of r.actions) {
    if (episode.done) break;
    observations.push(plain(episode.step(action).observation));
  }
  return { episode, transcript: transcriptOf(episode, observations) };
}

/** The paths (`events[5].breakdown.total`) where two plain-JSON values differ, at most `limit` of them. */
export function differingPaths(a: unknown, b: unknown, limit = 20, path = '', out: string[] = []): string[] {
  if (out.length >= limit) return out;
  if (a === b) return out;
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object';
  if (!bothObjects || Array.isArray(a) !== Array.isArray(b)) {
    out.push(path || '(root)');
    return out;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)]))
    differingPaths(ra[k], rb[k], limit, Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k, out);
  return out;
}

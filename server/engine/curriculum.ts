// The adaptive curriculum (SPEC §10). Pure and deterministic: no I/O, no clock, no
// global randomness. The state is plain JSON so it can be stored as-is and shown.
//
// Rules, per environment:
// - a difficulty window [l, h], starting [0, 0]; an episode's d is drawn from U{l..h};
// - only episodes played at d = h count: after `batch` (32) of them the window is checked:
//   if passed/counted ≥ `threshold` (90 %), h += 1 and l = max(l, h − `spread`) (spread 4);
// - the counters (counted, passed) reset after every check, whether h moved or not.
// Collections: C1 = {PD}, C2 = C1 + {SUB}, C4 = C2 + {CART, RETURN}, ALL = every env (SPEC's C8;
// "C8" is still accepted, and new runs asked for as C8 are stored as ALL).
// Environment choice: uniform over the collection (default) or round-robin by episode index.

import { D_RANGE } from './difficulty';
import type { Rng } from './random';
import { ENV_IDS, type EnvId } from './types';

export const COLLECTIONS = {
  C1: ['PD'],
  C2: ['PD', 'SUB'],
  C4: ['PD', 'SUB', 'CART', 'RETURN'],
  ALL: [...ENV_IDS],
  /** The SPEC's name for ALL, kept for stored runs and old commands. */
  C8: [...ENV_IDS],
} as const satisfies Record<string, readonly EnvId[]>;

export type CollectionId = keyof typeof COLLECTIONS;
const ALIASES: Partial<Record<CollectionId, CollectionId>> = { C8: 'ALL' };
/** The collections to offer (aliases left out). */
export const COLLECTION_IDS = (Object.keys(COLLECTIONS) as CollectionId[]).filter((id) => !ALIASES[id]);

export function isCollectionId(id: string): id is CollectionId {
  return Object.prototype.hasOwnProperty.call(COLLECTIONS, id);
}

export type EnvSampling = 'uniform' | 'round_robin';

export interface CurriculumOptions {
  /** Counted episodes (played at d = h) per check. SPEC: 32. */
  batch: number;
  /** Pass share needed at a check to raise h. SPEC: 0.9. */
  threshold: number;
  /** Largest window width h − l. SPEC: 4. */
  spread: number;
  /** How many recent results per env are kept for the recent pass rate. */
  recentSize: number;
  /** How the environment of the next episode is chosen. */
  sampling: EnvSampling;
}

export const DEFAULT_CURRICULUM_OPTIONS: CurriculumOptions = {
  batch: 32,
  threshold: 0.9,
  spread: 4,
  recentSize: 50,
  sampling: 'uniform',
};

/** A point where the window changed (the first one is the start at [0, 0]). */
export interface WindowChange {
  /** Run-wide episode count when it happened (0 = before any episode). */
  episode: number;
  l: number;
  h: number;
  /** ISO time supplied by the caller, or null (the engine has no clock). */
  at: string | null;
}

export interface CheckRecord {
  episode: number;
  /** h at the check (before any move). */
  h: number;
  counted: number;
  passed: number;
  moved: boolean;
  at: string | null;
}

export interface RecentResult {
  d: number;
  passed: boolean;
}

export interface EnvWindow {
  envId: EnvId;
  l: number;
  h: number;
  /** Episodes at d = h since the last check. */
  counted: number;
  /** Of those, how many passed. */
  passed: number;
  /** All episodes of this env (any d). */
  played: number;
  /** All passes of this env (any d). */
  passedTotal: number;
  /** Newest last; at most options.recentSize entries. */
  recent: RecentResult[];
  history: WindowChange[];
  lastCheck: CheckRecord | null;
  checks: number;
}

export interface CurriculumState {
  version: 1;
  collection: CollectionId;
  options: CurriculumOptions;
  /** Episodes recorded so far, all envs. */
  episodes: number;
  envs: EnvWindow[];
}

export interface CurriculumTask {
  envId: EnvId;
  d: number;
}

export interface CurriculumResult {
  envId: EnvId;
  d: number;
  passed: boolean;
  /** Timestamp to record with window changes (ISO); the engine never reads a clock. */
  at?: string | null;
}

export interface RecordOutcome {
  state: CurriculumState;
  /** True when this result triggered a check that raised h. */
  moved: boolean;
  /** The check this result triggered, if any. */
  check: CheckRecord | null;
  /** Whether the result counted toward the check (d = h). */
  counted: boolean;
}

function validateOptions(o: CurriculumOptions): CurriculumOptions {
  const bad = (what: string) => {
    throw new Error(`curriculum option ${what}`);
  };
  if (!Number.isInteger(o.batch) || o.batch < 1) bad(`batch must be a whole number ≥ 1, got ${o.batch}`);
  if (!(o.threshold > 0 && o.threshold <= 1)) bad(`threshold must be in (0, 1], got ${o.threshold}`);
  if (!Number.isInteger(o.spread) || o.spread < 0) bad(`spread must be a whole number ≥ 0, got ${o.spread}`);
  if (!Number.isInteger(o.recentSize) || o.recentSize < 1)
    bad(`recentSize must be a whole number ≥ 1, got ${o.recentSize}`);
  if (o.sampling !== 'uniform' && o.sampling !== 'round_robin')
    bad(`sampling must be "uniform" or "round_robin", got ${o.sampling}`);
  return o;
}

export function createCurriculum(collection: CollectionId, options: Partial<CurriculumOptions> = {}): CurriculumState {
  if (!isCollectionId(collection)) {
    throw new Error(`unknown collection "${collection}"; known: ${COLLECTION_IDS.join(', ')}`);
  }
  const opts = validateOptions({ ...DEFAULT_CURRICULUM_OPTIONS, ...options });
  return {
    version: 1,
    collection: ALIASES[collection] ?? collection,
    options: opts,
    episodes: 0,
    envs: COLLECTIONS[collection].map((envId) => ({
      envId,
      l: 0,
      h: 0,
      counted: 0,
      passed: 0,
      played: 0,
      passedTotal: 0,
      recent: [],
      history: [{ episode: 0, l: 0, h: 0, at: null }],
      lastCheck: null,
      checks: 0,
    })),
  };
}

/**
 * The next episode to play: an env of the collection and d ~ U{l..h} of its window.
 * `only` restricts the choice to some envs of the collection (e.g. those implemented so far).
 * Uniform sampling draws the env with `rng`; round-robin takes env number (episodes mod n).
 * The rng is always used for d, so a given rng stream gives the same tasks for the same state.
 */
export function nextTask(state: CurriculumState, rng: Rng, only?: readonly EnvId[]): CurriculumTask {
  const envs = only ? state.envs.filter((e) => only.includes(e.envId)) : state.envs;
  if (envs.length === 0) {
    throw new Error(
      `no environment to play: collection ${state.collection} has ${state.envs.map((e) => e.envId).join(', ')}` +
        (only ? `, but only ${only.join(', ') || 'none'} can be played` : ''),
    );
  }
  const env = state.options.sampling === 'round_robin' ? envs[state.episodes % envs.length] : rng.pick(envs);
  return { envId: env.envId, d: rng.int(env.l, env.h) };
}

/** Records one episode's result; returns a new state (the input is not modified). */
export function recordResult(state: CurriculumState, result: CurriculumResult): RecordOutcome {
  const idx = state.envs.findIndex((e) => e.envId === result.envId);
  if (idx < 0) {
    throw new Error(
      `environment ${result.envId} is not in collection ${state.collection} (${state.envs.map((e) => e.envId).join(', ')})`,
    );
  }
  if (!Number.isInteger(result.d) || result.d < 0) throw new Error(`d must be a whole number ≥ 0, got ${result.d}`);
  const { batch, threshold, spread, recentSize } = state.options;
  const at = result.at ?? null;
  const episode = state.episodes + 1;
  const old = state.envs[idx];
  const env: EnvWindow = {
    ...old,
    played: old.played + 1,
    passedTotal: old.passedTotal + (result.passed ? 1 : 0),
    recent: [...old.recent, { d: result.d, passed: result.passed }].slice(-recentSize),
  };
  const counted = result.d === old.h;
  let check: CheckRecord | null = null;
  if (counted) {
    env.counted = old.counted + 1;
    env.passed = old.passed + (result.passed ? 1 : 0);
    if (env.counted >= batch) {
      // A tiny epsilon keeps e.g. 0.9 × 30 from failing on float rounding.
      // h stops at the engine's largest supported difficulty (difficulty.ts D_RANGE).
      const moved = env.passed >= threshold * env.counted - 1e-9 && old.h < D_RANGE.max;
      check = { episode, h: old.h, counted: env.counted, passed: env.passed, moved, at };
      env.lastCheck = check;
      env.checks = old.checks + 1;
      env.counted = 0;
      env.passed = 0;
      if (moved) {
        env.h = old.h + 1;
        env.l = Math.max(old.l, env.h - spread);
        env.history = [...old.history, { episode, l: env.l, h: env.h, at }];
      }
    }
  }
  const envs = state.envs.slice();
  envs[idx] = env;
  return { state: { ...state, episodes: episode, envs }, moved: check?.moved ?? false, check, counted };
}

export interface EnvSummary {
  envId: EnvId;
  l: number;
  h: number;
  counted: number;
  passed: number;
  batch: number;
  played: number;
  passedTotal: number;
  /** Pass share over the env's last `recentN` episodes (any d), null before the first. */
  recentPassRate: number | null;
  recentN: number;
  lastCheck: CheckRecord | null;
}

export function summarize(state: CurriculumState): EnvSummary[] {
  return state.envs.map((e) => ({
    envId: e.envId,
    l: e.l,
    h: e.h,
    counted: e.counted,
    passed: e.passed,
    batch: state.options.batch,
    played: e.played,
    passedTotal: e.passedTotal,
    recentPassRate: e.recent.length ? e.recent.filter((r) => r.passed).length / e.recent.length : null,
    recentN: e.recent.length,
    lastCheck: e.lastCheck,
  }));
}

/**
 * h of every env over the run, as rows for a step chart: one row per episode index where some
 * env's window changed, plus the start (0) and the latest episode. Each row has every env's h.
 */
export function hTimeline(state: CurriculumState): Array<{ episode: number } & Partial<Record<EnvId, number>>> {
  const points = new Set<number>([0, state.episodes]);
  for (const e of state.envs) for (const c of e.history) points.add(c.episode);
  return [...points]
    .sort((a, b) => a - b)
    .map((episode) => {
      const row: { episode: number } & Partial<Record<EnvId, number>> = { episode };
      for (const e of state.envs) {
        let h = 0;
        for (const c of e.history) if (c.episode <= episode) h = c.h;
        row[e.envId] = h;
      }
      return row;
    });
}

/** One line per env, e.g. "PD      [2, 6]    at h: 17/32 counted, 15 passed  recent: 96% of 50  played: 400". */
export function formatWindows(state: CurriculumState): string {
  return summarize(state)
    .map(
      (s) =>
        `${s.envId.padEnd(7)} [${s.l}, ${s.h}]`.padEnd(18) +
        `at h: ${String(s.counted).padStart(2)}/${s.batch} counted, ${String(s.passed).padStart(2)} passed` +
        `  recent: ${s.recentPassRate === null ? '—' : `${Math.round(s.recentPassRate * 100)}% of ${s.recentN}`}` +
        `  played: ${s.played}`,
    )
    .join('\n');
}

/** Checks that a parsed JSON value looks like a CurriculumState (for stored states). */
export function parseCurriculumState(value: unknown): CurriculumState {
  const s = value as CurriculumState;
  if (!s || typeof s !== 'object' || s.version !== 1 || !isCollectionId(s.collection) || !Array.isArray(s.envs)) {
    throw new Error('not a curriculum state (version 1)');
  }
  for (const e of s.envs) {
    if (!ENV_IDS.includes(e.envId) || !Number.isInteger(e.l) || !Number.isInteger(e.h) || !Array.isArray(e.history)) {
      throw new Error(`curriculum state has a malformed window for ${String(e?.envId)}`);
    }
  }
  return { ...s, options: validateOptions({ ...DEFAULT_CURRICULUM_OPTIONS, ...s.options }) };
}

// Versioned episodes: JOURNEY draws from the env set its config records (so a ninth env does
// not change a stored JOURNEY's seeds), and the engine says plainly which versions it replays.

import { describe, expect, it } from 'vitest';
import { axesFor, envKnobs } from './difficulty';
import { Episode } from './episode';
import { createJourneyEnv, type JourneyGoal } from './envs/journey';
import { ATOMIC_ENVS, getEnv, JOURNEY_ENV_IDS } from './envs/registry';
import type { EnvContext, EnvDefinition } from './envs/types';
import { Rng } from './random';
import { testCatalog } from './testing/catalog-fixture';
import { ENV_IDS, type EnvId } from './types';
import { ENGINE_VERSION, REPLAYABLE_VERSIONS, replayRefusal } from './version';
import { createWorld } from './world/state';

const catalog = testCatalog();
const journeyIds = (e: Episode) => (e.hiddenGoal().data as JourneyGoal).subtasks.map((s) => s.envId);

function context(d: number, journeyEnvs?: readonly EnvId[]): EnvContext {
  return { catalog, axes: axesFor(d), d, knobs: envKnobs(d), world: createWorld('2026-06-01'), journeyEnvs };
}

/** A ninth env as a later release might add it: it offers the same goal as PD under a new id. */
const ninth = { ...getEnv('PD'), id: 'NINTH' } as unknown as EnvDefinition<unknown>;

describe('JOURNEY records the envs it draws from', () => {
  it('a new JOURNEY episode records every atomic env, in registry order', () => {
    const e = new Episode({ envId: 'JOURNEY', d: 4, seed: 1 }, catalog);
    expect(e.config.journeyEnvs).toEqual(['PD', 'SUB', 'CART', 'RETURN', 'STATUS', 'POLICY', 'BUNDLE']);
    expect(new Episode({ envId: 'PD', d: 4, seed: 1 }, catalog).config.journeyEnvs).toBeUndefined();
  });

  it('samples only from the recorded set', () => {
    for (let seed = 0; seed < 20; seed++) {
      const e = new Episode({ envId: 'JOURNEY', d: 12, seed, journeyEnvs: ['STATUS', 'POLICY'] }, catalog);
      e.reset();
      expect(new Set(journeyIds(e))).toEqual(new Set(['STATUS', 'POLICY']));
    }
  });

  it('with a ninth env registered, a JOURNEY that recorded the seven draws the same sub-tasks as before', () => {
    const today = createJourneyEnv(ATOMIC_ENVS);
    const later = createJourneyEnv([...ATOMIC_ENVS, ninth]);
    let differs = 0;
    for (let seed = 0; seed < 30; seed++) {
      const before = today.generate(context(8, JOURNEY_ENV_IDS), Rng.from('task', seed));
      const after = later.generate(context(8, JOURNEY_ENV_IDS), Rng.from('task', seed));
      expect(JSON.stringify(after.goal)).toBe(JSON.stringify(before.goal));
      // without the record the pool grows, and the draws change (what the record protects against)
      const unrecorded = later.generate(context(8), Rng.from('task', seed));
      if (JSON.stringify(unrecorded.goal) !== JSON.stringify(before.goal)) differs++;
    }
    expect(differs).toBeGreaterThan(0);
  });

  it('a recorded env this engine does not have is named plainly', () => {
    const e = new Episode({ envId: 'JOURNEY', d: 4, seed: 1, journeyEnvs: ['PD', 'GIFTCARD' as EnvId] }, catalog);
    expect(() => e.reset()).toThrow(
      'JOURNEY: no environment "GIFTCARD" among the ones it draws from (PD, SUB, CART, RETURN, STATUS, POLICY, BUNDLE)',
    );
  });
});

describe('engine version', () => {
  it('replays its own version, for every env', () => {
    expect(REPLAYABLE_VERSIONS).toContain(ENGINE_VERSION);
    for (const env of ENV_IDS) expect(replayRefusal(ENGINE_VERSION, env)).toBeNull();
  });

  it('replays v1 episodes except JOURNEY, whose CART items are now protected from other sub-tasks', () => {
    for (const env of ENV_IDS.filter((e) => e !== 'JOURNEY')) expect(replayRefusal(1, env)).toBeNull();
    expect(replayRefusal(1, 'JOURNEY')).toBe(
      `this episode was played under engine rules v1; this engine (v${ENGINE_VERSION}) changed JOURNEY's rules since then, ` +
        'so it cannot be rebuilt or continued (its stored events are shown as recorded)',
    );
  });

  it('refuses another version with a plain sentence', () => {
    expect(replayRefusal(ENGINE_VERSION + 1, 'PD')).toBe(
      `this episode was played under engine rules v${ENGINE_VERSION + 1}; this engine (v${ENGINE_VERSION}) replays v1, v2, v3, v4 only, ` +
        'so it cannot be rebuilt or continued (its stored events are shown as recorded)',
    );
  });
});

describe('an older episode plays under the rules it recorded (EpisodeConfig.engineVersion)', () => {
  it('top_k: max(5, 20 − ⌊5d/4⌋) from v3, max(20, 200 − 10·d) before', () => {
    expect(new Episode({ envId: 'PD', d: 12, seed: 1 }, catalog).axes.top_k).toBe(5);
    expect(new Episode({ envId: 'PD', d: 12, seed: 1, engineVersion: 3 }, catalog).axes.top_k).toBe(5);
    expect(new Episode({ envId: 'PD', d: 12, seed: 1, engineVersion: 2 }, catalog).axes.top_k).toBe(80);
    expect(new Episode({ envId: 'PD', d: 2, seed: 1, engineVersion: 1 }, catalog).axes.top_k).toBe(180);
    // an override wins under every version
    expect(
      new Episode({ envId: 'PD', d: 12, seed: 1, engineVersion: 2, axisOverrides: { top_k: 7 } }, catalog).axes.top_k,
    ).toBe(7);
  });

  it('catalog.search and catalog.rerank return at most top_k results from v3 (search capped before too)', () => {
    const results = (engineVersion: number | undefined) => {
      const e = new Episode({ envId: 'PD', d: 12, seed: 1, ...(engineVersion ? { engineVersion } : {}) }, catalog);
      e.reset();
      const ids = Array.from({ length: 30 }, (_, i) => catalog.at(i).id);
      const r = e.step({
        assistant_message: 'looking',
        tool_calls: [
          { name: 'catalog.search', args: { query: 'usb charger cable', top_k: 50 } },
          { name: 'catalog.rerank', args: { query: 'usb charger', candidate_product_ids: ids, top_k: 50 } },
        ],
        answer: null,
      });
      return r.observation.toolResults.map((t) => (t.result as unknown[]).length);
    };
    const [search3, rerank3] = results(undefined);
    expect(search3).toBeLessThanOrEqual(5);
    expect(rerank3).toBe(5);
    const [search2, rerank2] = results(2);
    expect(search2).toBeGreaterThan(5);
    expect(rerank2).toBe(30);
  });

  it('refuses an engineVersion it does not replay, in one sentence', () => {
    expect(() => new Episode({ envId: 'JOURNEY', d: 1, seed: 1, engineVersion: 1 }, catalog)).toThrow(
      /played under engine rules v1; .* changed JOURNEY's rules/,
    );
    expect(() => new Episode({ envId: 'PD', d: 1, seed: 1, engineVersion: 99 }, catalog)).toThrow(
      /replays v1, v2, v3, v4 only/,
    );
    expect(() => new Episode({ envId: 'PD', d: 1, seed: 1, engineVersion: 2.5 }, catalog)).toThrow(
      'engineVersion must be an integer, got 2.5',
    );
  });
});

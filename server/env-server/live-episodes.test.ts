// Stateless workers on one store: two services (two "workers", each with its own LRU) over one
// database play the same episodes turn by turn, alternating, and every answer equals the
// in-process run; a stale copy never forks an episode; a step key holds across workers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_VERSION, listEnvs, replayEpisode, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { EnvServerError } from './errors';
import { LiveEpisodes, rebuild, runOfPlayer, type StoredLog } from '@/server/episodes/live';
import { episodeReads } from '@/server/episodes/queries';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import { catalogSessions, createEnvService, type EnvService } from './protocol';
import { recorderOf } from '@/server/episodes/recorder';
import { createTokenService } from '@/server/episodes/tokens';
import { oracleRun, testConfig } from './test/helpers';

let db: TestDb;
beforeAll(() => {
  db = createTestDb();
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

/** A worker: its own LRU of `lru` live episodes, the shared store and token secret. */
function worker(lru = 100, reads = episodeReads(db.sql)): EnvService {
  return createEnvService({
    config: testConfig({ persist: true, maxSessions: lru }),
    catalog: testCatalog(),
    sessions: catalogSessions(
      testCatalog(),
      new LiveEpisodes({ max: lru, idleMs: 60_000 }),
      createTokenService({ secret: 'shared-secret' }),
      { reads, recorder: recorderOf(db.sql) },
    ),
  });
}

async function rejects(p: Promise<unknown>, code: string, message?: string | RegExp) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EnvServerError);
  expect((e as EnvServerError).code).toBe(code);
  if (message) expect((e as EnvServerError).message).toMatch(message);
}

describe('stateless workers over one store', () => {
  it('plays every env with steps alternating between two workers, identical to the in-process run', async () => {
    const a = worker();
    const b = worker();
    for (const envId of listEnvs().map((e) => e.id as EnvId)) {
      const reference = oracleRun({ envId, d: 5, seed: 31 });
      const reset = await a.durable(a.reset({ env: envId, d: 5, seed: 31, run: 'alt' }).response);
      for (const [i, action] of reference.actions.entries()) {
        const w = i % 2 === 0 ? b : a; // b first: a miss there, a stale copy on a afterwards
        const r = await w.stepEpisode(reset.episode_id, reset.token, action, null);
        expect(JSON.stringify(r.observation), `${envId} turn ${i + 1}`).toBe(reference.observations[i + 1]);
        expect(r.reward).toBe(reference.rewards[i + 1]);
      }
      const stored = await db.prisma.episodeAction.findMany({ where: { episodeId: reset.episode_id } });
      expect(stored.map((s) => s.seq).sort((x, y) => x - y)).toEqual(reference.actions.map((_, i) => i));
      const row = await db.prisma.episode.findUniqueOrThrow({ where: { id: reset.episode_id } });
      expect(row).toMatchObject({ status: 'done', eventCount: reference.episode.events.length });
      expect(row.reward).toBe(reference.episode.breakdown!.total);
    }
  });

  it('a worker whose copy went stale rebuilds it instead of forking the episode', async () => {
    const a = worker();
    const b = worker();
    const reference = oracleRun({ envId: 'JOURNEY', d: 4, seed: 8 }); // 6 steps
    const reset = await a.durable(a.reset({ env: 'JOURNEY', d: 4, seed: 8 }).response);
    const [first, second, third] = reference.actions;
    await a.stepEpisode(reset.episode_id, reset.token, first, null);
    await b.stepEpisode(reset.episode_id, reset.token, second, null); // a's copy is now behind
    expect(a.sessions.peek(reset.episode_id)!.steps).toBe(1);
    const r = await a.stepEpisode(reset.episode_id, reset.token, third, null);
    expect(JSON.stringify(r.observation)).toBe(reference.observations[3]);
    expect(a.sessions.peek(reset.episode_id)!.steps).toBe(3);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: reset.episode_id } })).toBe(3);
  });

  it('state on a worker whose copy went stale reports the stored turn, not its own', async () => {
    const a = worker();
    const b = worker();
    const reference = oracleRun({ envId: 'JOURNEY', d: 4, seed: 8 });
    const reset = await a.durable(a.reset({ env: 'JOURNEY', d: 4, seed: 8 }).response);
    await a.stepEpisode(reset.episode_id, reset.token, reference.actions[0], null);
    await b.stepEpisode(reset.episode_id, reset.token, reference.actions[1], null);
    expect(await a.stateRequest(reset.episode_id, reset.token)).toMatchObject({ turn: 2, step_count: 2 });
  });

  it('a step key answers a retry on another worker with the stored result, without a second step', async () => {
    const a = worker();
    const b = worker();
    const reference = oracleRun({ envId: 'PD', d: 2, seed: 4 });
    const reset = await a.durable(a.reset({ env: 'PD', d: 2, seed: 4 }).response);
    const id = reset.episode_id;
    const first = await a.stepEpisode(id, reset.token, reference.actions[0], 'k-1');
    // The answer was lost; the trainer retries the same step on b, which never held the episode.
    const retry = await b.stepEpisode(id, reset.token, reference.actions[0], 'k-1');
    expect(retry).toEqual(first);
    // And on a, which has it in memory.
    expect(await a.stepEpisode(id, reset.token, reference.actions[0], 'k-1')).toEqual(first);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: id } })).toBe(1);
    const next = await a.stepEpisode(id, reset.token, reference.actions[1], 'k-2');
    expect(JSON.stringify(next.observation)).toBe(reference.observations[2]);
    // b's copy (rebuilt at 1 step) is stale; the same key there still gets the stored answer.
    expect(await b.stepEpisode(id, reset.token, reference.actions[1], 'k-2')).toEqual(next);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: id } })).toBe(2);
  });

  it('an LRU of one rebuilds evicted running episodes, and state reads rebuild too', async () => {
    const w = worker(1);
    const refs = [oracleRun({ envId: 'RETURN', d: 2, seed: 1 }), oracleRun({ envId: 'SUB', d: 2, seed: 2 })];
    const resets = [];
    for (const [i, ref] of refs.entries())
      resets.push(
        await w.durable(w.reset({ env: ref.episode.config.envId, d: 2, seed: i + 1, run: `r${i}` }).response),
      );
    for (let t = 0; t < Math.max(...refs.map((r) => r.actions.length)); t++)
      for (const [i, ref] of refs.entries()) {
        if (t >= ref.actions.length) continue;
        const r = await w.stepEpisode(resets[i].episode_id, resets[i].token, ref.actions[t], null);
        expect(JSON.stringify(r.observation)).toBe(ref.observations[t + 1]);
        // a finished episode is not held (it is in the store); a running one is, up to the LRU's one
        expect(w.sessions.size).toBe(r.done ? 0 : 1);
      }
    const state = await w.stateRequest(resets[0].episode_id, resets[0].token);
    expect(state).toMatchObject({ done: true, run: 'r0', reward: refs[0].episode.breakdown!.total });
  });

  it('holds no finished episode: the last step with its key again, and state, come back from the store', async () => {
    const w = worker();
    const ref = oracleRun({ envId: 'PD', d: 3, seed: 12 });
    const reset = await w.durable(w.reset({ env: 'PD', d: 3, seed: 12, run: 'fin' }).response);
    let last;
    for (const [i, action] of ref.actions.entries())
      last = await w.stepEpisode(reset.episode_id, reset.token, action, `k${i}`);
    expect(last!.done).toBe(true);
    expect(w.sessions.has(reset.episode_id)).toBe(false);
    const n = ref.actions.length - 1;
    const again = await w.stepEpisode(reset.episode_id, reset.token, ref.actions[n], `k${n}`);
    expect(JSON.stringify(again)).toBe(JSON.stringify(last));
    expect(await db.prisma.episodeAction.count({ where: { episodeId: reset.episode_id } })).toBe(ref.actions.length);
    const state = await w.stateRequest(reset.episode_id, reset.token);
    expect(state).toMatchObject({ done: true, run: 'fin', turn: ref.actions.length, reward: ref.rewards.at(-1) });
    // rebuilt from the store, still the agent's seat: no hidden goal, none of its values
    expect(state).not.toHaveProperty('hidden_goal');
    expect(ref.secrets.size).toBeGreaterThan(0);
    for (const text of [JSON.stringify(state), JSON.stringify(again)])
      for (const secret of ref.secrets) expect(text.includes(secret), secret.slice(0, 100)).toBe(false);
  });

  it('checks the token before reading the store, and says when no worker recorded the episode', async () => {
    let reads = 0;
    const store = episodeReads(db.sql);
    const w = worker(10, { ...store, getRow: (id) => (reads++, store.getRow(id)) });
    const other = worker();
    const reset = await other.durable(other.reset({ env: 'PD', seed: 9 }).response);
    await rejects(w.stepEpisode(reset.episode_id, 'ept1.forged.x', {}, null), 'BAD_TOKEN');
    expect(reads).toBe(0);
    const forged = createTokenService({ secret: 'shared-secret' }).issue('ep_never');
    await rejects(w.stepEpisode('ep_never', forged, {}, null), 'UNKNOWN_EPISODE', 'no worker has recorded it');
    expect(reads).toBe(1);
  });

  it('reads the run name back from the recorded player', () => {
    expect(runOfPlayer('trainer:grpo-7')).toBe('grpo-7');
    expect(runOfPlayer('trainer:unnamed')).toBeNull();
    expect(runOfPlayer('human')).toBeNull();
  });
});

describe('rebuilding a stored trainer episode (round 11: evidence is explanation)', () => {
  /** A finished RETURN episode as the store keeps it, its reward event changed by `edit`. */
  function stored(edit: (reward: any) => void): StoredLog {
    const config = { envId: 'RETURN' as const, d: 2, seed: 9 };
    const episode = replayEpisode(config, testCatalog(), oracleRun(config).actions);
    const events = episode.events.map((e) => {
      if (e.kind !== 'reward') return JSON.stringify(e);
      const copy = JSON.parse(JSON.stringify(e));
      edit(copy);
      return JSON.stringify(copy);
    });
    const row = {
      ...config,
      id: 'ep_rebuild',
      axisOverrides: '{}',
      weights: null,
      journeyEnvs: null,
      player: 'trainer:evidence',
      catalogId: testCatalog().id,
      engineVersion: ENGINE_VERSION,
      eventCount: events.length,
    } as unknown as EpisodeRow;
    const actions = oracleRun(config).actions.map((a, seq) => ({
      seq,
      turn: seq,
      format: 'json' as const,
      raw: JSON.stringify(a),
      actor: null,
      stepKey: null,
      eventEnd: null,
      modelRecord: null,
    }));
    return { row, events: events.map((payload) => ({ payload })), actions };
  }

  it('accepts stored evidence worded by an older engine of the same version, refuses a changed number', () => {
    const reworded = stored((r) => {
      r.breakdown.evidence.task.at(-1).text = 'r_task = 0.45·1 + 0.45·1 + 0.10·1.000 = 1.000';
      r.breakdown.evidence.task.at(-1).ok = true;
      delete r.breakdown.evidence.task.at(-1).role;
    });
    expect(rebuild(reworded, testCatalog()).live.episode.done).toBe(true);
    expect(() =>
      rebuild(
        stored((r) => (r.breakdown.rTask -= 0.01)),
        testCatalog(),
      ),
    ).toThrow(/diverged at event \d+ \(reward/);
  });
});

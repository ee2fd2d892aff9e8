// Trainer episodes land in the app's store: the same rows the playground writes, readable (and
// rebuilt by replay) by the app's episode service; acknowledged only once committed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEnvs, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createEpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { catalogSessions, createEnvService } from './protocol';
import { recorderOf, StepConflictError, storedAction } from '@/server/episodes/recorder';
import { goalWithoutDataJson } from '@/server/episodes/stored-goal';
import { LiveEpisodes } from '@/server/episodes/live';
import { createTokenService } from '@/server/episodes/tokens';
import { oracleRun, testConfig } from './test/helpers';
import { openSqlDb, openSqlite, sqliteSqlDb, type SqlDb } from '@/server/db/sql';
import { listInputSchema } from '@/server/inspector/filters';
import { listEpisodes } from '@/server/episodes/queries/list';
import { createExporter } from '@/server/inspector/export';

let db: TestDb;
beforeAll(() => {
  db = createTestDb();
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

// The one writer (server/episodes/writer.ts) through the SQL layer's connection.
const WRITERS = {
  sql: (url: string) => {
    const target = url === db.url ? db.sql : openSqlDb(url);
    return { target, close: () => (target === db.sql ? Promise.resolve() : target.close()) };
  },
};

function recordingService(target: SqlDb) {
  const config = testConfig({ persist: true });
  const recorder = recorderOf(target);
  const service = createEnvService({
    config,
    catalog: testCatalog(),
    sessions: catalogSessions(
      testCatalog(),
      new LiveEpisodes({ max: 1000, idleMs: 60_000, evictRunning: false }),
      createTokenService({ secret: 'x' }),
      { recorder },
    ),
  });
  return { service, recorder };
}

const appEpisodes = () =>
  createEpisodeService({ prisma: db.prisma, getCatalog: () => testCatalog(), defaultCatalogId: testCatalog().id });

describe.each(Object.keys(WRITERS) as (keyof typeof WRITERS)[])('recording trainer episodes (%s writer)', (kind) => {
  let writer: ReturnType<(typeof WRITERS)[typeof kind]>;
  beforeAll(() => {
    writer = WRITERS[kind](db.url);
  });
  afterAll(() => writer.close());

  it('stores every env’s episode so the app lists it and rebuilds it by replay to the same events', async () => {
    const { service } = recordingService(writer.target);
    const ids: string[] = [];
    const sqlite = openSqlite(db.url);
    const inspector = sqliteSqlDb(sqlite);
    for (const envId of listEnvs().map((e) => e.id as EnvId)) {
      const reference = oracleRun({ envId, d: 4, seed: 21 });
      const { live, response } = service.reset({ env: envId, d: 4, seed: 21, run: 'grpo-7' });
      await service.durable(response);
      for (const [i, action] of reference.actions.entries()) {
        // Alternate raw text and structured actions: both are stored as received.
        await service.durable(service.stepLive(live, i % 2 ? JSON.stringify(action) : action));
      }
      ids.push(live.id);
      const app = appEpisodes();
      const view = await app.getEpisode(live.id);
      expect(view).toMatchObject({
        envId,
        d: 4,
        seed: 21,
        player: 'trainer:grpo-7',
        status: 'done',
        turn: reference.episode.turn,
      });
      expect(view.reward).toBe(reference.episode.breakdown!.total);
      expect(JSON.stringify(view.events)).toBe(JSON.stringify(reference.episode.events));
      expect(view.hiddenGoal.data).toEqual(reference.episode.hiddenGoal().data);
      // the row holds the goal without its data (stored-goal.ts): the export derives it too
      const line = await createExporter(inspector, async () => testCatalog()).episodeLine(live.id);
      expect(JSON.stringify(line!.hiddenGoal)).toBe(JSON.stringify(view.hiddenGoal));
      const formats = (
        await db.prisma.episodeAction.findMany({ where: { episodeId: live.id }, orderBy: { seq: 'asc' } })
      ).map((a) => a.format);
      expect(formats.slice(0, 2)).toEqual(reference.actions.length > 1 ? ['json', 'text'] : ['json']);
      // the per-episode storage cap counts a trainer episode's log as the playground's: events and actions
      const stored = await db.prisma.episode.findUniqueOrThrow({ where: { id: live.id } });
      const logBytes =
        (await db.prisma.episodeEvent.findMany({ where: { episodeId: live.id } })).reduce(
          (n, e) => n + e.payload.length,
          0,
        ) +
        (await db.prisma.episodeAction.findMany({ where: { episodeId: live.id } })).reduce(
          (n, a) => n + a.raw.length,
          0,
        );
      expect(stored.storedBytes).toBe(logBytes);
    }
    sqlite.close();
    const listed = await appEpisodes().listEpisodes({ limit: 100 });
    expect(listed.items.map((e) => e.id)).toEqual(expect.arrayContaining(ids));
  });

  it('shows a running episode as active with the turns acknowledged so far', async () => {
    const { service } = recordingService(writer.target);
    const { live, response } = service.reset({ env: 'PD', d: 2, seed: 5 });
    await service.durable(response);
    await service.durable(
      service.stepLive(live, {
        assistant_message: 'Looking.',
        tool_calls: [{ name: 'catalog.search', args: { query: 'lamp' } }],
        answer: null,
      }),
    );
    const row = await db.prisma.episode.findUniqueOrThrow({ where: { id: live.id } });
    expect(row).toMatchObject({
      status: 'active',
      turn: 1,
      player: 'trainer:unnamed',
      eventCount: live.episode.events.length,
    });
  });

  it('makes a running episode searchable in the inspector as soon as its step is acknowledged', async () => {
    const { service } = recordingService(writer.target);
    const { live, response } = service.reset({ env: 'PD', d: 2, seed: 6 });
    await service.durable(response);
    const word = `grundelvox${kind}`;
    await service.durable(
      service.stepLive(live, {
        assistant_message: `Searching ${word}.`,
        tool_calls: [{ name: 'catalog.search', args: { query: word } }],
        answer: null,
      }),
    );
    const sqlite = openSqlite(db.url);
    try {
      const found = (await listEpisodes(sqliteSqlDb(sqlite), listInputSchema.parse({ filter: { q: word } }))).rows;
      expect(found.map((r) => [r.id, r.status, r.toolCalls])).toEqual([[live.id, 'active', 1]]);
    } finally {
      sqlite.close();
    }
  });

  it('keeps the stored hidden goal current, step by step and when one batch holds several steps of an episode', async () => {
    const { service } = recordingService(writer.target);
    const stored = async (id: string) => {
      return (await db.prisma.episode.findUniqueOrThrow({ where: { id }, select: { hiddenGoal: true } })).hiddenGoal;
    };
    let changed = 0;
    let mergeMattered = 0;
    for (const envId of ['PD', 'JOURNEY', 'RETURN'] as const) {
      for (const seed of [31, 32]) {
        const reference = oracleRun({ envId, d: 6, seed });
        // One step per transaction: after each acknowledgement a reader gets the goal as it is now.
        const a = service.reset({ env: envId, d: 6, seed });
        await service.durable(a.response);
        let last = goalWithoutDataJson(a.live.episode.hiddenGoal());
        for (const action of reference.actions) {
          await service.durable(service.stepLive(a.live, action));
          const now = goalWithoutDataJson(a.live.episode.hiddenGoal());
          if (now !== last) changed++;
          last = now;
          expect(await stored(a.live.id)).toBe(now);
        }
        // Every step enqueued before any commits: the steps share a batch, and the row must end
        // with the latest goal even when the batch's last step left it unchanged.
        const b = service.reset({ env: envId, d: 6, seed });
        const goals = [goalWithoutDataJson(b.live.episode.hiddenGoal())];
        const answers = reference.actions.map((action) => {
          const r = service.stepLive(b.live, action);
          goals.push(goalWithoutDataJson(b.live.episode.hiddenGoal()));
          return r;
        });
        await Promise.all([service.durable(b.response), ...answers.map((r) => service.durable(r))]);
        if (goals.length > 2 && goals.at(-1) === goals.at(-2) && goals.at(-2) !== goals[0]) mergeMattered++;
        expect(await stored(b.live.id)).toBe(goals.at(-1));
      }
    }
    expect(changed).toBeGreaterThan(0);
    expect(mergeMattered).toBeGreaterThan(0);
  });

  it('commits concurrent steps in shared transactions, and acknowledges each only once its rows are in', async () => {
    const { service, recorder } = recordingService(writer.target);
    const lives = Array.from({ length: 24 }, (_, i) => service.reset({ env: 'STATUS', d: 2, seed: 100 + i }));
    const before = recorder.stats.batches;
    const seenAtAck = await Promise.all(
      lives.map(async ({ live, response }) => {
        await service.durable(response);
        const r = service.stepLive(live, {
          assistant_message: 'Checking your orders.',
          tool_calls: [{ name: 'order.list', args: {} }],
          answer: null,
        });
        await service.durable(r);
        // At acknowledgement time the step's action row must already be committed.
        return db.prisma.episodeAction.count({ where: { episodeId: live.id } });
      }),
    );
    expect(seenAtAck).toEqual(lives.map(() => 1));
    const batches = recorder.stats.batches - before;
    expect(batches).toBeLessThan(24 * 2);
    expect(recorder.stats.largestBatch).toBeGreaterThan(1);
  });

  it('fails only the bad operation of a batch, and still acknowledges its neighbours', async () => {
    const { service } = recordingService(writer.target);
    const first = service.reset({ env: 'PD', seed: 1, episode_id: `reused-id-${kind}` });
    await service.durable(first.response);
    service.sessions.drop(`reused-id-${kind}`); // as after an idle expiry: the id is free in memory, not in the store
    const again = service.reset({ env: 'PD', seed: 2, episode_id: `reused-id-${kind}` });
    const other = service.reset({ env: 'PD', seed: 3 });
    const [a, b] = await Promise.allSettled([service.durable(again.response), service.durable(other.response)]);
    expect(a).toMatchObject({
      status: 'rejected',
      // a clear 409, no database text (issue 29)
      reason: {
        code: 'EPISODE_EXISTS',
        status: 409,
        message: `episode_id "reused-id-${kind}" is already stored; reset with another episode_id, or none to get a new one`,
      },
    });
    expect(b.status).toBe('fulfilled');
    expect(await db.prisma.episode.count({ where: { id: other.live.id } })).toBe(1);
  });

  it('reports a step colliding with stored rows as a StepConflictError (a stale worker’s copy)', async () => {
    const { service, recorder } = recordingService(writer.target);
    const { live, response } = service.reset({ env: 'PD', d: 2, seed: 7 });
    await service.durable(response);
    const action = { assistant_message: 'Hello.', tool_calls: [], answer: null };
    const result = live.episode.step(action as never);
    live.steps++;
    await recorder.step(live, storedAction(action), result);
    // the same action seq again, as a worker holding a stale copy would write it
    await expect(recorder.step(live, storedAction(action), result)).rejects.toBeInstanceOf(StepConflictError);
    expect(await db.prisma.episodeAction.count({ where: { episodeId: live.id } })).toBe(1);
  });

  it('answers a failed write with EXECUTION_ERROR and closes the episode rather than acknowledging it', async () => {
    const unmigrated = WRITERS[kind](`file:${db.url.slice(5)}.${kind}.empty.db`);
    try {
      const { service } = recordingService(unmigrated.target);
      const { live, response } = service.reset({ env: 'PD', seed: 1 });
      await expect(service.durable(response)).rejects.toMatchObject({
        code: 'EXECUTION_ERROR',
        // the cause goes to the server log under the reference, not to the client
        message: expect.stringMatching(
          /^the episode could not be stored \(error [0-9a-f]{8} in the server log\); it is closed, reset to start another$/,
        ),
      });
      expect(service.sessions.has(live.id)).toBe(false);
    } finally {
      await unmigrated.close();
    }
  });
});

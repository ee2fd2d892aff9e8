// Trainer episodes land in the app's store: the same rows the playground writes, readable (and
// rebuilt by replay) by the app's episode service; acknowledged only once committed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { sqliteFile } from '@/server/db-path';
import { prepareTextIndex } from '@/server/episodes/sqlite-store/text-index';
import { UPKEEP_CHECKPOINT_MS, UPKEEP_MAX_BACKLOG, UPKEEP_MAX_DEFER_MS, upkeepPass, upkeepPlan } from './store-upkeep';
import { createRandomAgent, listEnvs, type EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createEpisodeService } from '@/server/episodes/service';
import { createTestDb, type TestDb } from '@/server/episodes/test-db';
import { createPrismaClient } from '@/server/db';
import { createEnvService } from './protocol';
import { Recorder, StepConflictError, hiddenGoalJson, type BatchWriter } from './recorder';
import { openSqliteWriter, openSqliteWriterThread } from './sqlite-writer';
import { SessionStore } from './sessions';
import { createTokenService } from './tokens';
import { oracleRun, testConfig } from './test/helpers';
import { openSqlite, sqliteInspectorDb } from '@/server/inspector/db';
import { listInputSchema } from '@/server/inspector/filters';
import { listEpisodes } from '@/server/inspector/query';
import { createExporter } from '@/server/inspector/export';
import { materialiseEvents } from '@/server/episodes/materialise';
import { prismaSqlDb } from '@/server/episodes/prisma-sql';

let db: TestDb;
beforeAll(() => {
  db = createTestDb();
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

// Both writers the server uses: Prisma (any database) and SQLite's own prepared statements, here
// on the writer thread serve:env runs them on (the thread runs the same writer embeddings run on
// their serving thread: live-episodes.test.ts and the store upkeep test below use that one).
const WRITERS = {
  prisma: (url: string) => {
    const client = url === db.url ? db.prisma : createPrismaClient(url);
    return { target: client, close: () => (client === db.prisma ? Promise.resolve() : client.$disconnect()) };
  },
  sqlite: (url: string) => {
    const writer = openSqliteWriterThread(url);
    return { target: writer as BatchWriter, close: () => writer.close() };
  },
};

function recordingService(target: ReturnType<(typeof WRITERS)[keyof typeof WRITERS]>['target']) {
  const config = testConfig({ persist: true });
  const recorder = new Recorder(target);
  const service = createEnvService({
    config,
    catalog: testCatalog(),
    tokens: createTokenService({ secret: 'x' }),
    sessions: new SessionStore({ maxSessions: 1000, idleTimeoutMs: 60_000 }),
    recorder,
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
    const inspector = sqliteInspectorDb(sqlite);
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
      const found = (await listEpisodes(sqliteInspectorDb(sqlite), listInputSchema.parse({ filter: { q: word } })))
        .rows;
      expect(found.map((r) => [r.id, r.status, r.toolCalls])).toEqual([[live.id, 'active', 1]]);
    } finally {
      sqlite.close();
    }
  });

  it('keeps the stored hidden goal current, step by step and when one batch holds several steps of an episode', async () => {
    const { service } = recordingService(writer.target);
    // As a reader gets it: mid-episode the goal's text comes with the events (materialise.ts).
    const stored = async (id: string) => {
      await materialiseEvents(prismaSqlDb(db.prisma, 'sqlite'), [id], () => testCatalog());
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
        let last = hiddenGoalJson(a.live.episode.hiddenGoal());
        for (const action of reference.actions) {
          await service.durable(service.stepLive(a.live, action));
          const now = hiddenGoalJson(a.live.episode.hiddenGoal());
          if (now !== last) changed++;
          last = now;
          expect(await stored(a.live.id)).toBe(now);
        }
        // Every step enqueued before any commits: the steps share a batch, and the row must end
        // with the latest goal even when the batch's last step left it unchanged.
        const b = service.reset({ env: envId, d: 6, seed });
        const goals = [hiddenGoalJson(b.live.episode.hiddenGoal())];
        const answers = reference.actions.map((action) => {
          const r = service.stepLive(b.live, action);
          goals.push(hiddenGoalJson(b.live.episode.hiddenGoal()));
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
    await recorder.step(live, action, result);
    // the same action seq again, as a worker holding a stale copy would write it
    await expect(recorder.step(live, action, result)).rejects.toBeInstanceOf(StepConflictError);
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

// The SQLite writer updates a running episode's row with a narrower statement than the Prisma
// writer's (sqlite-store/rows.ts, UPDATE_RUNNING_SQL); the rows must still be the same after
// every acknowledged step, running or finished.
it('leaves the same Episode row as the Prisma writer after every step (running and last steps)', async () => {
  const sqlite = openSqliteWriter(db.url); // the thread's writer, run inline (no thread start-up)
  try {
    const services = [recordingService(db.prisma).service, recordingService(sqlite).service];
    const row = async (id: string) => {
      const {
        id: _id,
        createdAt: _c,
        updatedAt: _u,
        ...rest
      } = await db.prisma.episode.findUniqueOrThrow({
        where: { id },
      });
      return rest;
    };
    let running = 0;
    for (const [envId, seed] of [
      ['PD', 41],
      ['RETURN', 44],
    ] as const) {
      const agent = createRandomAgent({ seed, pInvalid: 0.2, pPartialAnswer: 0.2 });
      const played = services.map((s) => s.reset({ env: envId, d: 4, seed }));
      await Promise.all(played.map((p, i) => services[i].durable(p.response)));
      let observation = played[0].response.observation;
      while (!played[0].live.episode.done) {
        const action = agent.act(observation, played[0].live.episode);
        const answers = played.map((p, i) => services[i].stepLive(p.live, action));
        await Promise.all(answers.map((a, i) => services[i].durable(a)));
        observation = answers[0].observation;
        if (!played[0].live.episode.done) running++;
        expect(await row(played[1].live.id)).toEqual(await row(played[0].live.id));
      }
    }
    expect(running).toBeGreaterThan(4);
  } finally {
    sqlite.close();
  }
});

// The upkeep pass serve:env's thread runs (store-upkeep.ts): it indexes what the serving writers
// committed and checkpoints the WAL they only append to (wal_autocheckpoint = 0 with upkeep elsewhere).
describe('store upkeep', () => {
  it('indexes when the writers idle, the backlog reaches its bound or the longest deferral has passed; checkpoints once a second', () => {
    const look = (pendingEvents: number, newEvents: number, msSinceCheckpoint: number, msSinceIndex = 0) =>
      upkeepPlan({ pendingEvents, newEvents, msSinceIndex, msSinceCheckpoint });
    // writers busy, backlog under the bound: nothing, until a second has passed (checkpoint only)
    expect(look(UPKEEP_MAX_BACKLOG - 1, 500, UPKEEP_CHECKPOINT_MS - 1)).toEqual({ index: false, checkpoint: false });
    expect(look(UPKEEP_MAX_BACKLOG - 1, 500, UPKEEP_CHECKPOINT_MS)).toEqual({ index: false, checkpoint: true });
    // backlog at the bound: indexed (and checkpointed after) although the writers are busy
    expect(look(UPKEEP_MAX_BACKLOG, 500, 0)).toEqual({ index: true, checkpoint: true });
    // writers that never pause: indexed once the longest deferral has passed
    expect(look(50, 5, 0, UPKEEP_MAX_DEFER_MS - 1)).toEqual({ index: false, checkpoint: false });
    expect(look(50, 5, 0, UPKEEP_MAX_DEFER_MS)).toEqual({ index: true, checkpoint: true });
    // writers idle since the last look: whatever waits is indexed at once
    expect(look(1, 0, 0)).toEqual({ index: true, checkpoint: true });
    // nothing waits: a checkpoint once a second (the WAL may hold other writes), nothing else
    expect(look(0, 0, UPKEEP_CHECKPOINT_MS - 1, UPKEEP_MAX_DEFER_MS)).toEqual({ index: false, checkpoint: false });
    expect(look(0, 0, UPKEEP_CHECKPOINT_MS)).toEqual({ index: false, checkpoint: true });
  });

  it('leaves indexing and checkpoints to the upkeep pass, which does both within its budget', async () => {
    const writer = openSqliteWriter(db.url, { upkeep: 'elsewhere' });
    const service = createEnvService({
      config: testConfig({ persist: true }),
      catalog: testCatalog(),
      tokens: createTokenService({ secret: 'x' }),
      sessions: new SessionStore({ maxSessions: 100, idleTimeoutMs: 60_000 }),
      // events written with the steps, as the web path and the materialiser write them
      recorder: new Recorder(writer, { events: 'stored' }),
    });
    const word = 'quorblentine';
    for (const seed of [1, 2, 3]) {
      const reference = oracleRun({ envId: 'PD', d: 3, seed });
      const { live, response } = service.reset({ env: 'PD', d: 3, seed, run: 'upkeep' });
      await service.durable(response);
      await service.durable(
        service.stepLive(live, {
          assistant_message: `Looking for ${word}.`,
          tool_calls: [{ name: 'catalog.search', args: { query: word } }],
          answer: null,
        }),
      );
      for (const action of reference.actions.slice(1))
        if (!live.episode.done) await service.durable(service.stepLive(live, action));
    }

    const conn = new Database(sqliteFile(db.url)!);
    try {
      const index = prepareTextIndex(conn);
      const pending = index.pending();
      expect(pending).toBeGreaterThan(10); // the writer indexed nothing itself
      const found = () =>
        conn
          .prepare(
            `SELECT count(DISTINCT o."episodeId") AS n FROM "EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid
             WHERE "EpisodeText" MATCH ?`,
          )
          .get(word) as { n: number };
      expect(found().n).toBe(0);

      // No budget: nothing indexed (but the WAL is checkpointed: every frame copied back).
      const idle = upkeepPass(conn, index, 0);
      expect(idle.indexed).toBe(0);
      expect(idle.walPages).toBeGreaterThan(0);
      expect(idle.checkpointed).toBe(idle.walPages);
      const pass = upkeepPass(conn, index);
      expect(pass.indexed).toBe(pending);
      expect(index.pending()).toBe(0);
      expect(found().n).toBe(3);
      // The index's own writes were checkpointed too.
      expect(pass.checkpointed).toBe(pass.walPages);
    } finally {
      conn.close();
      writer.close();
    }
  }, 60_000);
});

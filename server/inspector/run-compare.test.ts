// Runs as first-class things: every kind of run is offered by the filters under a key, its
// episodes are found by that key, and two batch runs of the same grid compare cell by cell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvId } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { createTestDb, type TestDb } from '@/server/episodes/test/db';
import { inProcessRunPlayer } from '@/server/models/run-player';
import { startStoredRun } from '@/server/models/runs';
import { compareRuns } from './compare';
import { openSqlite, sqliteSqlDb, type SqlDb, type Sqlite } from '@/server/db/sql';
import { listInputSchema } from './filters';
import { facets } from './index';
import { listEpisodes } from '@/server/episodes/queries/list';
import { batchRunName, defaultRunName, parseRunKey, runCondition } from './run-keys';

let db: TestDb;
let sqlite: Sqlite;
let store: SqlDb;
beforeAll(() => {
  db = createTestDb();
  sqlite = openSqlite(db.url);
  store = sqliteSqlDb(sqlite);
  testCatalog();
}, 120_000);
afterAll(async () => {
  sqlite?.close();
  await db?.cleanup();
});

const spec = { envs: ['PD', 'CART'] as EnvId[], ds: [1, 4], seeds: [1, 2, 3], concurrency: 2 };
const deps = () => ({
  prisma: db.prisma,
  runPlayer: inProcessRunPlayer(() => testCatalog()),
  catalogId: testCatalog().id,
});
const list = (filter: Record<string, unknown>) => listEpisodes(store, listInputSchema.parse({ filter, size: 200 }));

describe('run keys', () => {
  it('reads the kind and id of a key; a key without a kind matches any run column', () => {
    expect(parseRunKey('batch:abc')).toEqual({ kind: 'batch', id: 'abc' });
    expect(parseRunKey('import:file.jsonl')).toEqual({ kind: 'import', id: 'file.jsonl' });
    expect(parseRunKey('my:label')).toEqual({ kind: null, id: 'my:label' });
    expect(runCondition('trainer:ppo-1')).toEqual({ sql: 'e."player" = ?', args: ['trainer:ppo-1'] });
    expect(runCondition('old-label').args).toEqual(['old-label', 'old-label', 'old-label']);
  });

  it('names a run by who played × envs × d × seeds unless it was given a name', () => {
    expect(defaultRunName('model:qwen', spec)).toBe('qwen × PD+CART × d1–4 × 3 seeds');
    expect(defaultRunName('heuristic', { envs: ['A', 'B', 'C', 'D'], ds: [5], seeds: [1] })).toBe(
      'heuristic × 4 envs × d5 × 1 seed',
    );
    expect(batchRunName('heuristic', JSON.stringify({ ...spec, name: 'baseline' }))).toBe('baseline');
  });
});

describe('batch runs in the inspector', { timeout: 180_000 }, () => {
  let a = '';
  let b = '';
  let r = '';
  beforeAll(async () => {
    const run = async (agent: 'heuristic' | 'random', name?: string) => {
      const started = await startStoredRun(deps(), { kind: 'agent', agent }, { ...spec, ...(name ? { name } : {}) });
      await started.finished;
      return started.id;
    };
    a = await run('heuristic', 'first');
    b = await run('heuristic');
    r = await run('random');
  }, 180_000);

  it('offers every batch run by key and name, and the run filter finds exactly its episodes', async () => {
    const runs = (await facets(store)).runs;
    expect(runs.filter((x) => x.kind === 'batch').map((x) => [x.key, x.name])).toEqual(
      expect.arrayContaining([
        [`batch:${a}`, 'first'],
        [`batch:${b}`, 'heuristic × PD+CART × d1–4 × 3 seeds'],
      ]),
    );
    const rows = (await list({ run: `batch:${a}` })).rows;
    expect(rows).toHaveLength(12);
    const stored = await db.prisma.episode.findMany({ where: { runId: a }, select: { id: true } });
    expect(rows.map((x) => x.id).sort()).toEqual(stored.map((x) => x.id).sort());
  });

  it('aligns two runs of the same grid on (env, d, seed): every cell paired, nothing flipped', async () => {
    const cmp = await compareRuns(store, { by: 'run', value: `batch:${a}` }, { by: 'run', value: `batch:${b}` });
    expect(cmp.cells.map((c) => `${c.envId}@${c.d}:${c.pairs}`)).toEqual(['CART@1:3', 'CART@4:3', 'PD@1:3', 'PD@4:3']);
    for (const c of cmp.cells) {
      expect(c.bothPass + c.bothFail).toBe(3);
      expect(c.meanRewardA).toBeCloseTo(c.meanRewardB, 12);
    }
    expect(cmp.flipped).toEqual([]);
  });

  it('lists as flipped exactly the tasks whose stored pass/fail differs between a heuristic and a random run', async () => {
    const cmp = await compareRuns(store, { by: 'run', value: `batch:${a}` }, { by: 'run', value: `batch:${r}` });
    const rows = await db.prisma.episode.findMany({ where: { runId: { in: [a, r] } } });
    const task = (e: { envId: string; d: number; seed: number }) => `${e.envId}@${e.d}#${e.seed}`;
    const ofRun = (run: string) => new Map(rows.filter((e) => e.runId === run).map((e) => [task(e), e]));
    const [inA, inR] = [ofRun(a), ofRun(r)];
    const expected = [...inA].flatMap(([k, ea]) => {
      const er = inR.get(k);
      return er && Boolean(ea.isCorrect) !== Boolean(er.isCorrect) ? [`${k}:${ea.id}/${er.id}`] : [];
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(cmp.flipped.map((f) => `${f.envId}@${f.d}#${f.seed}:${f.a}/${f.b}`).sort()).toEqual(expected.sort());
  });

  it('offers curriculum, trainer and import runs too, each finding its own episodes', async () => {
    const [e1, e2, e3] = await db.prisma.episode.findMany({ where: { runId: r }, take: 3, orderBy: { id: 'asc' } });
    const cur = await db.prisma.curriculumRun.create({
      data: { name: 'C4 warm-up', collection: 'C4', seed: 1, catalogId: testCatalog().id, state: '{}' },
    });
    await db.prisma.episode.update({ where: { id: e1.id }, data: { runId: null, curriculumRunId: cur.id } });
    await db.prisma.episode.update({ where: { id: e2.id }, data: { runId: null, player: 'trainer:ppo-7' } });
    await db.prisma.episode.update({ where: { id: e3.id }, data: { runId: null, runLabel: 'traces.jsonl' } });
    const runs = (await facets(store)).runs.map((x) => `${x.kind}|${x.key}|${x.name}`);
    expect(runs).toEqual(
      expect.arrayContaining([
        `curriculum|curriculum:${cur.id}|C4 warm-up`,
        'trainer|trainer:ppo-7|ppo-7',
        'import|import:traces.jsonl|traces.jsonl',
      ]),
    );
    const ids = async (run: string) => (await list({ run })).rows.map((x) => x.id);
    expect(await ids(`curriculum:${cur.id}`)).toEqual([e1.id]);
    expect(await ids('trainer:ppo-7')).toEqual([e2.id]);
    expect(await ids('import:traces.jsonl')).toEqual([e3.id]);
    expect(await ids('traces.jsonl')).toEqual([e3.id]); // a link from before run kinds
    expect(await ids(`batch:${r}`)).toHaveLength(9);
  });
});

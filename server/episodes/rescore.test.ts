// Issue 7.1: every stored episode records its reward revision; an older one can be re-scored
// (replayed under the current engine) from the service and the CLI, old and new side by side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleAgent, playEpisode } from '@/server/engine';
import { createSyntheticCatalog } from '@/server/engine/catalog/synthetic';
import type { Catalog } from '@/server/engine/catalog/types';
import { REWARD_REVISION } from '@/server/engine/reward';
import type { Action, EpisodeConfig, RewardBreakdown } from '@/server/engine/types';
import { compareScores, createRescoreService, rescoreActions, type RescoreService } from './rescore';
import { parseRescoreArgs, rescoreAll, runRescoreCli } from '@/scripts/rescore-cli';
import { createEpisodeService, type EpisodeService } from './service';
import { createTestDb, type TestDb } from './test/db';
import { EpisodeServiceError } from './types';

const CATALOG_ID = 'synthetic-s1-n3000';
let catalog: Catalog;
let db: TestDb;
let episodes: EpisodeService;
let rescorer: RescoreService;

beforeAll(() => {
  catalog = createSyntheticCatalog({ seed: 1, size: 3000 });
  db = createTestDb();
  const getCatalog = (id?: string) => {
    if (id !== CATALOG_ID) throw new Error(`unknown catalog ${id}`);
    return catalog;
  };
  episodes = createEpisodeService({ prisma: db.prisma, getCatalog, defaultCatalogId: CATALOG_ID });
  rescorer = createRescoreService({ prisma: db.prisma, getCatalog });
}, 60_000);

afterAll(async () => {
  await db?.cleanup();
});

const CONFIG: EpisodeConfig = { envId: 'STATUS', d: 3, seed: 11 };

/** An oracle episode stored through the service; returns its id and the actions. */
async function storeOracleEpisode(config = CONFIG) {
  const { actions } = playEpisode(config, catalog, oracleAgent);
  const view = await episodes.startEpisode({
    envId: config.envId,
    d: config.d,
    seed: config.seed,
    catalogId: CATALOG_ID,
    player: 'oracle',
  });
  for (const a of actions) await episodes.submitAction(view.id, a);
  return { id: view.id, actions };
}

/** Pretend the row was scored under revision 1 with a different efficiency term. */
async function makeRevision1(id: string, rEffDelta: number) {
  const row = await db.prisma.episode.findUniqueOrThrow({ where: { id } });
  const b = JSON.parse(row.breakdown!) as RewardBreakdown;
  const old = { ...b, rEff: b.rEff + rEffDelta, total: b.total + b.weights.eff * rEffDelta };
  await db.prisma.episode.update({
    where: { id },
    data: { rewardRevision: 1, reward: old.total, breakdown: JSON.stringify(old) },
  });
  return { now: b, old };
}

describe('reward revision', () => {
  it('new episodes store the engine revision; the view shows it', async () => {
    const { id } = await storeOracleEpisode();
    const view = await episodes.getEpisode(id);
    expect(view.rewardRevision).toBe(REWARD_REVISION);
    expect(REWARD_REVISION).toBe(3);
    expect((await episodes.listEpisodes()).items.find((e) => e.id === id)?.rewardRevision).toBe(REWARD_REVISION);
  });

  it('rows from before revisions were recorded read as revision 1 (the migration default)', async () => {
    const cols = await db.prisma.$queryRawUnsafe<Array<{ name: string; dflt_value: string }>>(
      `SELECT name, dflt_value FROM pragma_table_info('Episode') WHERE name = 'rewardRevision'`,
    );
    expect(cols).toEqual([{ name: 'rewardRevision', dflt_value: '1' }]);
  });
});

describe('re-scoring an episode (service)', () => {
  it('replays the stored actions and shows old and new side by side, marking what changed; the original is kept', async () => {
    const { id } = await storeOracleEpisode();
    const { now, old } = await makeRevision1(id, -0.4);
    const r = await rescorer.rescoreEpisode(id);
    expect(r).toMatchObject({
      episodeId: id,
      fromRevision: 1,
      toRevision: REWARD_REVISION,
      replay: 'exact',
      isCorrect: now.isCorrect,
    });
    expect(r.reward).toBeCloseTo(now.total, 9);
    expect(r.old).toMatchObject({ revision: 1, isCorrect: now.isCorrect });
    expect(r.old.reward).toBeCloseTo(old.total, 9);
    const changed = r.components.filter((c) => c.changed).map((c) => c.name);
    expect(changed).toEqual(['reward', 'r_eff']);
    const eff = r.components.find((c) => c.name === 'r_eff')!;
    expect(eff.old).toBeCloseTo(now.rEff - 0.4, 6);
    expect(eff.new).toBeCloseTo(now.rEff, 6);
    // stored beside, not over, the original
    const row = await db.prisma.episode.findUniqueOrThrow({ where: { id } });
    expect([row.rewardRevision, row.reward]).toEqual([1, old.total]);
    const listed = await rescorer.listRescores(id);
    expect(listed.map((x) => x.id)).toEqual([r.id]);
    expect(listed[0].components).toEqual(r.components);
  });

  it('refuses unknown, malformed and unfinished episodes with one precise error', async () => {
    await expect(rescorer.rescoreEpisode('nope')).rejects.toThrow('no episode with id "nope"');
    await expect(rescorer.rescoreEpisode('../x')).rejects.toThrow('episode id "../x" is not an episode id');
    const active = await episodes.startEpisode({ envId: 'PD', d: 1, seed: 2, catalogId: CATALOG_ID });
    const err = await rescorer.rescoreEpisode(active.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EpisodeServiceError);
    expect((err as Error).message).toBe(
      `episode ${active.id} is still active; only a finished episode can be re-scored`,
    );
  });

  it('--all re-scores only finished episodes of an older revision, unless asked for every one', async () => {
    const a = await storeOracleEpisode({ envId: 'POLICY', d: 4, seed: 3 });
    const b = await storeOracleEpisode({ envId: 'POLICY', d: 4, seed: 4 });
    await makeRevision1(a.id, -0.2);
    const older = await db.prisma.episode.findMany({
      where: { status: 'done', rewardRevision: { lt: REWARD_REVISION } },
      select: { id: true },
    });
    const result = await rescoreAll(rescorer, db.prisma);
    expect(result.failed).toEqual([]);
    expect(result.rescored.map((r) => r.episodeId).sort()).toEqual(older.map((o) => o.id).sort());
    expect(result.rescored.some((r) => r.episodeId === a.id)).toBe(true);
    expect(result.rescored.some((r) => r.episodeId === b.id)).toBe(false);
    const every = await rescoreAll(rescorer, db.prisma, { includeCurrent: true });
    expect(every.rescored.some((r) => r.episodeId === b.id)).toBe(true);
    const same = every.rescored.find((r) => r.episodeId === b.id)!;
    expect(same.components.filter((c) => c.changed)).toEqual([]);
  });
});

describe('re-scoring (pure replay outcomes)', () => {
  const play = () => playEpisode(CONFIG, catalog, oracleAgent);
  const storedOf = (ep: ReturnType<typeof play>['episode']) => ({
    revision: 1,
    reward: ep.breakdown!.total,
    isCorrect: ep.breakdown!.isCorrect,
    terminationReason: ep.termination,
    breakdown: ep.breakdown,
    eventPayloads: ep.events.map((e) => JSON.stringify(e)),
  });

  it('says when the recorded actions run out before the episode ends (no new reward)', () => {
    const { episode, actions } = play();
    const r = rescoreActions(CONFIG, catalog, actions.slice(0, -1), storedOf(episode));
    expect(r.replay).toBe('unfinished');
    expect([r.reward, r.isCorrect, r.breakdown]).toEqual([null, null, null]);
    expect(r.note).toMatch(/still going after all \d+ recorded action\(s\)/);
    expect(r.components.find((c) => c.name === 'reward')).toMatchObject({ new: null, changed: true });
  });

  it('says when the episode now ends before the recorded actions do', () => {
    const { episode, actions } = play();
    const extra: Action = { assistant_message: 'one more', tool_calls: [], answer: null };
    const r = rescoreActions(CONFIG, catalog, [...actions, extra, extra], storedOf(episode));
    expect(r.replay).toBe('ended_early');
    expect(r.note).toMatch(/the last 2 recorded action\(s\) were not used$/);
    expect(r.reward).toBe(episode.breakdown!.total);
  });

  it('tells a changed play (events differ before the reward) from a changed score only', () => {
    const { episode, actions } = play();
    const stored = storedOf(episode);
    expect(rescoreActions(CONFIG, catalog, actions, stored).replay).toBe('exact');
    const edited = {
      ...stored,
      eventPayloads: stored.eventPayloads.map((p, i) => (i === 1 ? p.replace('"turn":1', '"turn":9') : p)),
    };
    const r = rescoreActions(CONFIG, catalog, actions, edited);
    expect(r.replay).toBe('changed');
    expect(r.note).toMatch(/differs from event 1 on/);
  });

  it('compares components to 6 decimals and treats a missing score as changed', () => {
    const base = { reward: 0.5, isCorrect: true, terminationReason: 'answered' as const, breakdown: null };
    expect(compareScores(base, { ...base, reward: 0.5 + 1e-9 }).filter((c) => c.changed)).toEqual([]);
    expect(
      compareScores(base, { ...base, isCorrect: false })
        .filter((c) => c.changed)
        .map((c) => c.name),
    ).toEqual(['pass']);
  });
});

describe('npm run rescore', () => {
  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runRescoreCli(
      argv,
      rescorer,
      db.prisma,
      (l) => out.push(l),
      (l) => err.push(l),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('parses ids, --all and --include-current, and refuses the rest precisely', () => {
    expect(parseRescoreArgs(['abc'])).toEqual({ kind: 'ids', ids: ['abc'] });
    expect(parseRescoreArgs(['--all'])).toEqual({ kind: 'all', includeCurrent: false });
    expect(parseRescoreArgs(['--all', '--include-current'])).toEqual({ kind: 'all', includeCurrent: true });
    expect(() => parseRescoreArgs([])).toThrow('give an episode id or --all');
    expect(() => parseRescoreArgs(['--all', 'x'])).toThrow('give either --all or episode ids, not both (got x)');
    expect(() => parseRescoreArgs(['--nope'])).toThrow(
      'unknown flag --nope; flags are --all, --include-current, --help',
    );
    expect(() => parseRescoreArgs(['x', '--include-current'])).toThrow('--include-current only goes with --all');
  });

  it('prints one episode with every component, changed ones starred', async () => {
    const { id } = await storeOracleEpisode({ envId: 'STATUS', d: 2, seed: 5 });
    await makeRevision1(id, -0.3);
    const r = await run([id]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^${id}: revision 1 → ${REWARD_REVISION}  reward `));
    expect(r.out).toMatch(/\n {2}r_eff +-?\d\.\d{3} +→ +-?\d\.\d{3} {2}\*/);
    expect(r.out).toMatch(/\n {2}pass +yes +→ +yes\n/);
  });

  it('--all prints a summary line; usage errors exit 2 and unknown ids 1', async () => {
    const all = await run(['--all', '--include-current']);
    expect(all.code).toBe(0);
    expect(all.out).toMatch(
      /rescore: \d+ episode\(s\) re-scored under revision 3, 0 failed; pass changed in \d+; mean reward -?\d\.\d{3} → -?\d\.\d{3}/,
    );
    const usage = await run([]);
    expect([usage.code, usage.err.split('\n')[0]]).toEqual([2, 'rescore: give an episode id or --all']);
    const missing = await run(['nope']);
    expect([missing.code, missing.err]).toEqual([1, 'rescore: nope: no episode with id "nope"']);
  });
});

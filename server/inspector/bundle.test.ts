// The demo bundle's builder: every turn of every episode is in the file, the reward is the stored
// one, and no hidden-goal value is in it unless the goal was asked for (scanned like the seat).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEnvs, toolSpecsFor } from '@/server/engine';
import type { EnvId, EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import { fieldNames, leakedValues, secretValues } from '@/server/episodes/test/goal-scan';
import type { HiddenGoal } from '@/server/episodes/types';
import { bundlePayload, MAX_BUNDLE_EPISODES, type BundlePayload } from './bundle';
import { bundleHtml, payloadOfHtml } from './bundle-html';
import { createEpisodeData } from './episode-data';
import { createExporter } from './export';
import { listInputFromParams } from './filters';
import { episodeIds } from '@/server/episodes/queries/list';
import { createInspectorTestDb, getTestCatalog, type InspectorTestDb } from './test/helpers';

let db: InspectorTestDb;
const ids: string[] = [];

beforeAll(async () => {
  db = createInspectorTestDb();
  // every env once with the heuristic agent (it does not know the goal, so goal values stay
  // out of its own actions), plus an oracle episode that passes
  for (const env of listEnvs()) ids.push(await db.play(env.id as EnvId, 6, 7, 'heuristic'));
  ids.push(await db.play('CART', 4, 3, 'oracle'));
}, 120_000);
afterAll(async () => db?.cleanup());

const build = (withGoal: boolean, which: readonly string[] = ids) =>
  bundlePayload(db.store, createEpisodeData(db.store, getTestCatalog), which, {
    withGoal,
    now: new Date('2026-01-02T03:04:05Z'),
  });
const stored = (id: string) => createExporter(db.store).episodeLine(id);

/** What the transcript shows anyway: values found there prove nothing about a leak. */
function publicTextOf(payload: BundlePayload, envId: string): string {
  const ep = payload.episodes.find((e) => e.envId === envId)!;
  const events = ep.turns.flatMap((t) => t.events);
  return [
    fieldNames(payload),
    ...events.map((e) =>
      e.kind === 'tool_call' || e.kind === 'answer' || e.kind === 'agent_message' ? JSON.stringify(e) : '',
    ),
    ...events.map((e) => (e.kind === 'customer_message' ? e.text : '')),
    JSON.stringify(toolSpecsFor(envId as EnvId)),
    JSON.stringify(listEnvs()),
    bundleHtml({ ...payload, episodes: [] }), // the page and the viewer: the same in every bundle
    ep.id,
    ep.player,
  ].join('\n');
}

describe('demo bundle', () => {
  it('holds every turn of every episode, in order, and the stored reward', async () => {
    const payload = await build(true);
    expect(payload.episodes.map((e) => e.id)).toEqual(ids);
    for (const ep of payload.episodes) {
      const line = (await stored(ep.id))!;
      const events = (line.events as EpisodeEvent[]).filter((e) => e.kind !== 'reward');
      expect(ep.turns.map((t) => t.turn)).toEqual([...Array(Number(line.turn) + 1).keys()]);
      expect(ep.turns.flatMap((t) => t.events)).toEqual(events);
      expect(ep.reward).toBe(line.reward);
      expect(ep.reward).toBeCloseTo((line.breakdown as RewardBreakdown).total, 6); // the column is rounded
      expect(ep.breakdown).toEqual(line.breakdown);
      expect(ep.isCorrect).toBe(line.isCorrect);
      expect(ep.turns.every((t) => t.world !== null)).toBe(true);
      expect(ep.hiddenGoal).toEqual(line.hiddenGoal);
    }
    expect(payload.episodes.at(-1)!.isCorrect).toBe(true); // the oracle passes: a bundle shows both outcomes
  });

  it('without the goal: no goal value anywhere in the HTML, all eight envs; with it the same scan finds them', async () => {
    const without = payloadOfHtml(bundleHtml(await build(false)));
    const withGoal = await build(true);
    expect(without.withGoal).toBe(false);
    for (const ep of without.episodes) {
      expect(ep).not.toHaveProperty('hiddenGoal');
      expect(ep.seed).toBeNull();
      expect(ep.turns.flatMap((t) => t.events).some((e) => e.kind === 'world_change')).toBe(false);
    }
    for (const [i, env] of listEnvs().entries()) {
      const goal = (await stored(ids[i]))!.hiddenGoal as HiddenGoal;
      const secrets = secretValues(goal, publicTextOf(without, env.id));
      expect(secrets.length, `${env.id} has goal values to look for`).toBeGreaterThan(0);
      // one episode's file at a time: another episode's transcript may say the same words
      const alone = (p: BundlePayload) => bundleHtml({ ...p, episodes: [p.episodes[i]] });
      expect(leakedValues(alone(without), secrets), env.id).toEqual([]);
      expect(leakedValues(alone(withGoal), secrets).length, env.id).toBeGreaterThan(0);
    }
  }, 60_000);

  it('without the goal the reward and its components stay, only the task evidence goes', async () => {
    const [ep] = (await build(false, [ids.at(-1)!])).episodes;
    const line = (await stored(ep.id))!;
    const b = line.breakdown as RewardBreakdown;
    expect(b.evidence.task.length).toBeGreaterThan(0);
    expect(ep.reward).toBe(line.reward);
    expect(ep.breakdown).toEqual({ ...b, task: { ...b.task, evidence: [] }, evidence: { ...b.evidence, task: [] } });
    expect(ep.shown.reward).toMatch(/^[+−]\d\.\d{3}$/);
  });

  it('the HTML loads nothing from outside and keeps data as data', async () => {
    const payload = await build(false, [ids[0]]);
    payload.title = '</script><script>alert(1)</script> & <b>';
    payload.episodes[0].player = '</script><img src=x onerror=alert(1)>';
    const html = bundleHtml(payload);
    expect(payloadOfHtml(html)).toEqual(payload);
    expect(html.match(/<script/g)).toHaveLength(2); // the data and the viewer, nothing injected
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;</title>');
  });

  it('leaves unknown ids out and refuses more episodes than a bundle holds', async () => {
    expect((await build(false, ['nope', ids[0]])).episodes.map((e) => e.id)).toEqual([ids[0]]);
    await expect(build(false, Array(MAX_BUNDLE_EPISODES + 1).fill(ids[0]))).rejects.toThrow(/at most 200/);
  });

  it('--run NAME finds a batch run by its id, as it finds a labelled run', async () => {
    db.sqlite.prepare('UPDATE "Episode" SET "runId" = ? WHERE "id" IN (?, ?)').run('batch-1', ids[0], ids[2]);
    db.sqlite.prepare('UPDATE "Episode" SET "runLabel" = ? WHERE "id" = ?').run('trainer-a', ids[1]);
    const run = (name: string) => episodeIds(db.store, listInputFromParams(new URLSearchParams({ run: name })));
    expect((await run('batch-1')).sort()).toEqual([ids[0], ids[2]].sort());
    expect(await run('trainer-a')).toEqual([ids[1]]);
  });
});

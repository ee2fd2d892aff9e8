// bench:inspector --only runview: a training run of N rollouts (G = 4 per prompt, 10 train
// steps, copies of a pool of real episodes played by three agents, so groups differ), seeded
// once into the bench's store, then the run view's reads (SQL sums per group, histogram bins) and
// summary, and a group view, timed. Target: run view p95 ≤ 500 ms at 100,000 rollouts.
import { createHeuristicAgent, createRandomAgent, oracleAgent, ENV_IDS } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import { Rng } from '@/server/engine/random';
import type { SqlDb, Stmt } from '@/server/db/sql';
import { readGroup, readRewardBins, readRunGroups, rolloutLogs } from '@/server/episodes/run-rollouts';
import { groupCause } from '@/server/inspector/group-cause';
import { rowOf, type EpisodeRecord } from '@/server/inspector/insert';
import { insertMany } from './bench-seed';
import { episodeStatements, newEpisodeId } from '@/server/episodes/writer';
import { playToLine } from '@/server/inspector/play';
import { parseGroupSlug, summarizeRun } from '@/server/inspector/run-view';
import { report, timed } from './bench-inspector-measure';

export const BENCH_RUN = 'trainer:bench-grpo';
const G = 4;
const STEPS = 10;

export async function seedRun(store: SqlDb, catalog: Catalog, n: number) {
  const have = (await store.get<{ n: number }>('SELECT count(*) AS "n" FROM "Episode" WHERE "player" = ?', [
    BENCH_RUN,
  ]))!.n;
  if (Number(have) >= n)
    return console.log(`run view: reusing ${Number(have).toLocaleString()} rollouts of ${BENCH_RUN}`);
  await store.run('DELETE FROM "Episode" WHERE "player" = ?', [BENCH_RUN]);
  const t0 = performance.now();
  // per prompt (env, d, seed) three agents' episodes: a group draws its G rollouts from them
  const prompts: Array<ReturnType<typeof playToLine>[]> = [];
  for (const envId of ENV_IDS)
    for (const d of [0, 3, 6, 9, 12])
      for (const seed of [0, 1])
        prompts.push(
          [oracleAgent, createHeuristicAgent(), createRandomAgent(seed)].map((a) =>
            playToLine({ envId, d, seed }, catalog, a, 'bench-pool'),
          ),
        );
  const pool = prompts.flat() as unknown as EpisodeRecord[];
  const poolIds = await insertMany(store, pool);
  // each pool episode's row made once; a copy changes only id, seed, player and step, and takes
  // the pool episode's log inside the store (the writer's newEpisode and copyLog statements)
  const rows = pool.map((r, i) => ({ ...rowOf(r, poolIds[i]), player: BENCH_RUN }));
  const writes = episodeStatements(store);
  const rng = Rng.from('bench-runview', 1);
  const groups = Math.ceil(n / G);
  for (let g = 0, done = 0; done < n;) {
    const batch: Stmt[] = [];
    for (; batch.length < 15_000 && done < n; g++) {
      const k = Math.floor(rng.next() * prompts.length);
      for (let m = 0; m < G && done < n; m++, done++) {
        const from = k * 3 + Math.floor(rng.next() * 3);
        // one prompt per group (its own seed)
        const row = { ...rows[from], id: newEpisodeId(), seed: g, trainStep: Math.floor((g * STEPS) / groups) };
        batch.push(...writes.newEpisode(row, []), ...writes.copyLog(poolIds[from], row));
      }
    }
    await store.batch(batch); // one transaction per 5,000 rollouts
    process.stderr.write(`\r  run view: seeded ${done.toLocaleString()} of ${n.toLocaleString()} rollouts`);
  }
  process.stderr.write('\n');
  await store.run('ANALYZE');
  console.log(`run view: ${n.toLocaleString()} rollouts seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

export async function measureRunView(store: SqlDb) {
  const times: number[] = [];
  const cpu: number[] = [];
  let summary: ReturnType<typeof summarizeRun> | null = null;
  for (let i = 0; i < 12; i++) {
    const [wall, c] = await timed(async () => {
      summary = summarizeRun(await readRunGroups(store, BENCH_RUN), await readRewardBins(store, BENCH_RUN));
    });
    times.push(wall);
    cpu.push(c);
  }
  const s = summary!;
  report(
    `run view (${s.total.rollouts.toLocaleString()} rollouts, ${s.total.groups.toLocaleString()} groups)`,
    times,
    500,
    cpu,
  );
  const groupTimes: number[] = [];
  for (const row of s.worst.slice(0, 20))
    groupTimes.push(
      (
        await timed(async () => {
          const g = (await readGroup(store, BENCH_RUN, parseGroupSlug(row.slug)))!;
          groupCause(
            await rolloutLogs(
              store,
              g.rollouts.map((r) => r.id),
            ),
          );
        })
      )[0],
    );
  report('group view (G = 4)', groupTimes, 200);
}

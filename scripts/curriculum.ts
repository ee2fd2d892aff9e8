// Runs the adaptive curriculum (SPEC §10) with a built-in agent or a connected model.
//
//   npm run curriculum -- --collection C4 --agent oracle --episodes 2000
//
// Options: --collection C1|C2|C4|ALL (C8 = ALL; default C4), --agent NAME (default oracle; a
// built-in agent, or connection:NAME for a connected model: stored runs only),
// --episodes N (default 2000), --seed N (run seed; default random), --name TEXT,
// --run ID (continue a stored run), --store-episodes (also store every episode, so they
// show in /episodes; default: only the run's state is stored), --memory (no database at all),
// --every N (print the windows every N episodes; default 250), --sampling uniform|round_robin.
import { parseArgs } from 'node:util';
import { randomInt } from 'node:crypto';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { createCurriculum, formatWindows, isCollectionId, type CurriculumState } from '@/server/engine/curriculum';
import { playableEnvs, playCurriculumTask, type CurriculumStep } from '@/server/curriculum/player';
import { MAX_EPISODE_BYTES, MAX_EPISODE_EVENTS } from '@/server/episodes/service';
import { BUILT_IN_AGENTS, isBuiltInAgent } from '@/server/models/agents';

const { values: opt } = parseArgs({
  options: {
    collection: { type: 'string', default: 'C4' },
    agent: { type: 'string', default: 'oracle' },
    episodes: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    name: { type: 'string' },
    run: { type: 'string' },
    'store-episodes': { type: 'boolean', default: false },
    memory: { type: 'boolean', default: false },
    every: { type: 'string', default: '250' },
    sampling: { type: 'string', default: 'uniform' },
  },
});

function fail(msg: string): never {
  console.error(`curriculum: ${msg}`);
  process.exit(2);
}

const total = Number(opt.episodes);
const every = Number(opt.every);
if (!Number.isInteger(total) || total < 1) fail(`--episodes must be a whole number ≥ 1, got "${opt.episodes}"`);
if (!Number.isInteger(every) || every < 1) fail(`--every must be a whole number ≥ 1, got "${opt.every}"`);
if (!opt.run && !isCollectionId(opt.collection))
  fail(`--collection must be one of C1, C2, C4, ALL (C8 = ALL), got "${opt.collection}"`);
if (opt.sampling !== 'uniform' && opt.sampling !== 'round_robin') fail(`--sampling must be uniform or round_robin`);
if (opt.memory && !isBuiltInAgent(opt.agent))
  fail(`--memory plays built-in agents only (${BUILT_IN_AGENTS.join(', ')}), got "${opt.agent}"`);
const agent = { name: opt.agent };
const seed = opt.seed !== undefined ? Number(opt.seed) : randomInt(0, 2_147_483_647);
if (!Number.isInteger(seed) || seed < 0) fail(`--seed must be a whole number ≥ 0`);

let played = 0;
let passed = 0;
let rewardSum = 0;
const started = Date.now();

function onStep(step: CurriculumStep, state: CurriculumState) {
  played++;
  if (step.passed) passed++;
  if (!step.outcome) return console.log(`  infrastructure failure, not scored: ${JSON.stringify(step.episode.infra)}`);
  rewardSum += step.reward;
  if (step.outcome.moved) {
    const w = state.envs.find((e) => e.envId === step.task.envId)!;
    console.log(
      `  #${String(state.episodes).padStart(6)}  ${w.envId.padEnd(7)} h ${w.h - 1} → ${w.h}   window [${w.l}, ${w.h}]`,
    );
  }
  if (played % every === 0 && played < total) report(state, `after ${played} of ${total} episodes`);
}

function report(state: CurriculumState, title: string) {
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const mean = played ? rewardSum / played : 0;
  console.log(
    `\n── ${title} · pass ${played ? Math.round((100 * passed) / played) : 0}% · mean reward ${mean >= 0 ? '+' : ''}${mean.toFixed(3)} · ${secs}s`,
  );
  console.log(formatWindows(state));
}

function header(state: CurriculumState, where: string) {
  const playable = playableEnvs(state);
  const skipped = state.envs.map((e) => e.envId).filter((e) => !playable.includes(e));
  console.log(`curriculum ${state.collection} · agent ${agent.name} · ${total} episodes · seed ${seed} · ${where}`);
  console.log(
    `playing: ${playable.join(', ') || 'none'}${skipped.length ? `   (not implemented yet, skipped: ${skipped.join(', ')})` : ''}\n`,
  );
}

async function main() {
  if (opt.memory) {
    let state = createCurriculum(opt.collection as 'C4', { sampling: opt.sampling as 'uniform' });
    header(state, 'in memory (nothing stored)');
    const catalog = getCatalog(DEFAULT_CATALOG_ID);
    const playable = playableEnvs(state);
    if (playable.length === 0) fail(`none of ${state.collection}'s environments can be played yet`);
    const player = { kind: 'agent' as const, agent: opt.agent as (typeof BUILT_IN_AGENTS)[number] };
    const caps = { maxEvents: MAX_EPISODE_EVENTS, maxBytes: MAX_EPISODE_BYTES };
    for (let i = 0; i < total; i++) {
      const [step] = (await playCurriculumTask({ state, runSeed: seed, player, catalog, caps, playable })) ?? [];
      if (!step?.outcome) break; // built-in agents are never cancelled nor cut off by infrastructure
      state = step.outcome.state;
      onStep(step, state);
    }
    report(state, `final windows after ${state.episodes} episodes`);
    return;
  }
  const { curriculumService } = await import('@/server/curriculum');
  const run = opt.run
    ? await curriculumService.getRun(opt.run)
    : await curriculumService.createRun({
        name: opt.name ?? `cli ${opt.collection} ${agent.name}`,
        collection: opt.collection,
        seed,
        sampling: opt.sampling as 'uniform',
      });
  header(run.state, `run ${run.id} (${run.name})`);
  let state = run.state;
  for (let done = 0; done < total;) {
    const n = Math.min(1000, total - done);
    const res = await curriculumService.stepRun(
      run.id,
      { episodes: n, agent: agent.name, storeEpisodes: opt['store-episodes'] },
      (p) => onStep(p.step, p.state),
    );
    state = res.run.state;
    done += n;
  }
  report(state, `final windows after ${state.episodes} episodes of run ${run.id}`);
  console.log(`see it at /curriculum?run=${run.id}`);
  const { prisma } = await import('@/server/db');
  await prisma.$disconnect();
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

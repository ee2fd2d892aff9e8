// npm run axes:teeth [-- --seeds 200 --envs all --axes all --catalog-size 3000]
// For each axis and env: the heuristic's pass-rate and mean-reward change when the axis alone is
// raised from its d = 3 to its d = 12 value, and when it is knocked back to its d = 3 value at
// d = 12, each with its standard error, against the row's own base arms (server/engine/eval/axes-teeth.ts). Prints a markdown
// table for docs/environments.md; exits 1 when an axis has no teeth or an env hears < 2 axes.
// A 3,000-product synthetic catalog by default: the axes act on the episode, not the catalog size,
// and the run is ~10× faster than on the 20k catalog (26 arms × 8 envs × the seeds).
import { parseArgs } from 'node:util';
import { createHeuristicAgent } from '../server/engine/agents/heuristic';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import type { AxisName } from '../server/engine/difficulty';
import { rowBites, teethRows, teethVerdict, bites, type Change, type TeethRow } from '../server/engine/eval/axes-teeth';
import { parseEnvs } from '../server/engine/eval/grid';
import { ENV_IDS } from '../server/engine/types';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '200' },
    envs: { type: 'string', default: 'all' },
    'catalog-size': { type: 'string', default: '3000' },
    axes: { type: 'string', default: 'all' },
  },
});
const seeds = Number(values.seeds);
const size = Number(values['catalog-size']);
if (!Number.isInteger(seeds) || seeds < 2 || !Number.isInteger(size) || size < 100) {
  process.stderr.write('axes:teeth: --seeds must be an integer ≥ 2 and --catalog-size ≥ 100\n');
  process.exit(2);
}
const envs = parseEnvs(values.envs!, [...ENV_IDS]);
const onlyAxes = values.axes === 'all' ? undefined : new Set(values.axes!.split(','));
const catalog = createSyntheticCatalog({ seed: 1, size });
const seedList = Array.from({ length: seeds }, (_, i) => 3000 + i);
const started = performance.now();
const rows: TeethRow[] = [];
for (const env of envs) {
  rows.push(...teethRows(env, seedList, catalog, createHeuristicAgent, undefined, onlyAxes));
  process.stderr.write(`axes:teeth: ${env} done (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
}

const fmt = (c: Change, pct: boolean, axis: AxisName) => {
  const k = pct ? 100 : 1;
  const digits = pct ? 1 : 3;
  const sign = c.delta >= 0 ? '+' : '−';
  return `${sign}${Math.abs(c.delta * k).toFixed(digits)} ± ${(c.se * k).toFixed(digits)}${bites(c, axis) ? ' **' : ''}`;
};
console.log(
  `axes:teeth: heuristic, ${seeds} seeds per arm (${seedList[0]}..${seedList.at(-1)}), catalog ${catalog.id}; ` +
    `Δ ± 1 SE; ** = beyond 2 SE in the harder direction ` +
    `(towards the d = 12 value; for the budgets T_max and B_tool, towards the d = 3 value)\n`,
);
console.log(
  '| axis | env | raised: Δ pass (pp) | raised: Δ reward | knocked out: Δ pass (pp) | knocked out: Δ reward | teeth |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.axis} | ${r.env} | ${fmt(r.raisedPass, true, r.axis)} | ${fmt(r.raisedReward, false, r.axis)} | ${fmt(r.knockedPass, true, r.axis)} | ${fmt(r.knockedReward, false, r.axis)} | ${rowBites(r) ? 'yes' : ''} |`,
  );
const { toothless, deaf } = teethVerdict(rows);
console.log(
  `\naxes without teeth: ${toothless.join(', ') || 'none'}; envs responding to fewer than 2 axes: ${deaf.join(', ') || 'none'}`,
);
process.exitCode = toothless.length || deaf.length ? 1 : 0;

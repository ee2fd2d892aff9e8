// npx tsx scripts/measure-defusal.ts [seeds]
// Do p_oos and p_missing still bite when an agent tries to defuse them (issue 7)?
// - p_oos: the heuristic with and without a throwaway catalog.get_product alone on turn 1
//   (the old exploit: stock events were drawn once, after the first retrieval).
// - p_missing: a keyword-stuffing asker (turn 1: one question naming every slot keyword, no
//   tool call; then the heuristic, reading the opening and the reply) at p_missing 0 vs 1.
// Prints mean reward and pass rate per arm.

import { createHeuristicEpisodeAgent } from '../server/engine/agents/heuristic';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import { Episode } from '../server/engine/episode';
import type { Action, AxisValues, EnvId, Observation } from '../server/engine/index';

const seeds = Number(process.argv[2] ?? 40);
const catalog = createSyntheticCatalog({ seed: 1, size: 20_000 });
const STUFFED =
  'Before I search: any budget, price, brand, rating, stars, shipping, delivery, color, size, material, connector, wattage, power, screen, weight, pack, pieces, quantity, how many, variant, when, date, reason, member, total, days, condition, destination, speed, payment, online, return, months?';

type Opening = 'plain' | 'dummy' | 'stuffed';

function play(envId: EnvId, d: number, seed: number, overrides: Partial<AxisValues>, opening: Opening) {
  const episode = new Episode({ envId, d, seed, axisOverrides: overrides }, catalog);
  const first = episode.reset().observation;
  const heuristic = createHeuristicEpisodeAgent(envId);
  let observation: Observation = first;
  if (opening !== 'plain') {
    const action: Action =
      opening === 'dummy'
        ? {
            assistant_message: 'One moment, let me check something.',
            tool_calls: [{ name: 'catalog.get_product', args: { product_id: catalog.at(0).id } }],
            answer: null,
          }
        : { assistant_message: STUFFED, tool_calls: [], answer: null };
    const reply = episode.step(action).observation;
    if (episode.done) return episode.breakdown!;
    // the heuristic then starts from the opening (plus what the customer just said)
    observation = {
      ...reply,
      customerMessage: `${first.customerMessage} ${opening === 'stuffed' ? (reply.customerMessage ?? '') : ''}`,
      toolResults: [],
    };
  }
  while (!episode.done) observation = episode.step(heuristic(observation)).observation;
  return episode.breakdown!;
}

function arm(label: string, envId: EnvId, d: number, overrides: Partial<AxisValues>, opening: Opening) {
  const runs = Array.from({ length: seeds }, (_, s) => play(envId, d, 1000 + s, overrides, opening));
  const mean = runs.reduce((a, b) => a + b.total, 0) / runs.length;
  const pass = runs.filter((b) => b.isCorrect).length / runs.length;
  process.stdout.write(`${label.padEnd(48)} mean reward ${mean.toFixed(3)}  pass ${(100 * pass).toFixed(0)}%\n`);
}

for (const [envId, d] of [
  ['BUNDLE', 12],
  ['PD', 8],
] as const) {
  arm(`${envId} d=${d} p_oos 0, heuristic`, envId, d, { p_oos: 0 }, 'plain');
  arm(`${envId} d=${d} p_oos 0.5, heuristic`, envId, d, { p_oos: 0.5 }, 'plain');
  arm(`${envId} d=${d} p_oos 0.5, dummy call on turn 1`, envId, d, { p_oos: 0.5 }, 'dummy');
}
for (const [envId, d] of [
  ['PD', 6],
  ['POLICY', 9],
] as const) {
  arm(`${envId} d=${d} p_missing 0, keyword-stuffing asker`, envId, d, { p_missing: 0 }, 'stuffed');
  arm(`${envId} d=${d} p_missing 1, keyword-stuffing asker`, envId, d, { p_missing: 1 }, 'stuffed');
}

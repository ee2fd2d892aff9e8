// node --import tsx scripts/bench-goal-summary.ts [reads per episode]
// The hidden goal's cost when read after a step (the trainer recorder reads episode.hiddenGoal()
// after every step to keep the stored goal current, issue 10). Per env: oracle episodes at
// d 0/3/6/9 (seeds 1..8), each stopped after its first step, then `reads` calls of hiddenGoal()
// timed by the process's CPU time (µs per call). When nothing changed since the last read this
// is what every read after a step costs; a step that changes the stock builds the summary once.
// Recipe and figures: docs/performance.md (ninth round).
import { availableEnvs } from '../server/engine/envs/registry';
import { loadOrCreateSyntheticCatalog } from '../server/engine/catalog/cache';
import { Episode, oracleAgent } from '../server/engine';

const reads = Number(process.argv[2] ?? 20_000);
const catalog = loadOrCreateSyntheticCatalog({ seed: 1, size: 1000 }, () => {});
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (const env of availableEnvs()) {
  const perCall: number[] = [];
  for (let seed = 1; seed <= 8; seed++) {
    const episode = new Episode({ envId: env.id, d: [0, 3, 6, 9][seed % 4], seed }, catalog);
    const { observation } = episode.reset();
    episode.step(oracleAgent.act(observation, episode));
    let lines = 0;
    for (let i = 0; i < 200; i++) lines += episode.hiddenGoal().summary.length; // warm-up
    const t0 = cpuMs();
    for (let i = 0; i < reads; i++) lines += episode.hiddenGoal().summary.length;
    perCall.push(((cpuMs() - t0) * 1000) / reads);
    if (lines === 0) throw new Error(`${env.id}: an empty summary`);
  }
  perCall.sort((a, b) => a - b);
  console.log(
    `${env.id.padEnd(8)} hiddenGoal() ${perCall[perCall.length >> 1].toFixed(3)} µs CPU per call (median of 8 episodes; min ${perCall[0].toFixed(3)}, max ${perCall[perCall.length - 1].toFixed(3)})`,
  );
}

// Issue 7, "what must be true": the dial makes every env harder in reward and in passing for the
// heuristic (ρ(d, mean reward) ≤ −0.8, a falling pass rate), and reward tracks pass (failed
// episodes score at least 0.15 below passed ones in each d band 0–4, 5–8, 9–12). The heuristic
// is goal-blind and deterministic, so these are fixed numbers for a fixed catalog; the test
// guards them against a reward or generator change that quietly flattens the dial.
import { describe, expect, it } from 'vitest';
import { ENV_IDS } from '../types';
import { playEpisode } from '../play';
import { spearman } from '../eval/spearman';
import { testCatalog } from '../testing/catalog-fixture';
import { createHeuristicAgent } from './heuristic';

const catalog = testCatalog();
const SEEDS = 50;
const DS = Array.from({ length: 13 }, (_, d) => d);
const BANDS = [
  [0, 4],
  [5, 8],
  [9, 12],
] as const;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('the heuristic against the dial', () => {
  it.each(ENV_IDS.map((id) => [id]))(
    '%s: ρ(d, mean reward) ≤ −0.8, pass rate falls, failed scores ≥ 0.15 below passed per band',
    (envId) => {
      const agent = createHeuristicAgent();
      const rows = DS.flatMap((d) =>
        Array.from({ length: SEEDS }, (_, seed) => {
          const b = playEpisode({ envId, d, seed }, catalog, agent).episode.breakdown!;
          return { d, reward: b.total, pass: b.isCorrect };
        }),
      );
      const at = (d: number) => rows.filter((r) => r.d === d);
      const rho = spearman(
        DS,
        DS.map((d) => mean(at(d).map((r) => r.reward))),
      );
      expect(rho, `${envId} ρ`).toBeLessThanOrEqual(-0.8);

      const inBand = ([lo, hi]: readonly [number, number]) => rows.filter((r) => r.d >= lo && r.d <= hi);
      const passRate = (rs: typeof rows) => rs.filter((r) => r.pass).length / rs.length;
      const rates = BANDS.map((b) => passRate(inBand(b)));
      expect(rates[2], `${envId} pass rate by band ${rates.join(' / ')}`).toBeLessThan(rates[0]);

      for (const band of BANDS) {
        const rs = inBand(band);
        const passed = rs.filter((r) => r.pass).map((r) => r.reward);
        const failed = rs.filter((r) => !r.pass).map((r) => r.reward);
        if (passed.length === 0 || failed.length === 0) continue; // no gap to measure in this band
        expect(mean(passed) - mean(failed), `${envId} d ${band[0]}–${band[1]} gap`).toBeGreaterThanOrEqual(0.15);
      }
    },
    300_000,
  );
});

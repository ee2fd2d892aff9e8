// Turning per-episode rows into the env × d summary the eval prints and saves.

import type { EnvId, TerminationReason } from '../types';
import { spearman } from './spearman';

export interface EpisodeRow {
  env: EnvId;
  d: number;
  seed: number;
  reward: number;
  isCorrect: boolean;
  termination: TerminationReason;
  turns: number;
}

export interface CellSummary {
  env: EnvId;
  d: number;
  n: number;
  meanReward: number;
  passRate: number;
}

export interface EnvSummary {
  env: EnvId;
  n: number;
  meanReward: number;
  passRate: number;
  /** Spearman's ρ between d and the cell mean reward (NaN → null: fewer than two d, or constant). */
  rho: number | null;
  /**
   * ρ(d, cell mean reward) on each block of BLOCK_SEEDS consecutive seeds (SPEC §11 rev 3: ≤ −0.7
   * on every block), in seed order; empty when the run has fewer than two blocks' seeds.
   */
  blockRhos: Array<{ firstSeed: number; rho: number | null }>;
  terminations: Partial<Record<TerminationReason, number>>;
}

export interface EvalSummary {
  envs: EnvId[];
  ds: number[];
  cells: CellSummary[];
  perEnv: EnvSummary[];
  overall: { n: number; meanReward: number; passRate: number };
}

/** Seeds per block of the block-wise ρ (SPEC §11 rev 3). */
export const BLOCK_SEEDS = 40;

const mean = (xs: readonly number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

function stats(rows: readonly EpisodeRow[]) {
  return {
    n: rows.length,
    meanReward: mean(rows.map((r) => r.reward)),
    passRate: mean(rows.map((r) => (r.isCorrect ? 1 : 0))),
  };
}

/** ρ(d, mean reward) per block of BLOCK_SEEDS consecutive seeds (by the seeds present, in order). */
function blockRhos(rows: readonly EpisodeRow[], ds: readonly number[]): EnvSummary['blockRhos'] {
  const seeds = [...new Set(rows.map((r) => r.seed))].sort((a, b) => a - b);
  if (seeds.length < 2 * BLOCK_SEEDS) return [];
  const out: EnvSummary['blockRhos'] = [];
  for (let i = 0; i + BLOCK_SEEDS <= seeds.length; i += BLOCK_SEEDS) {
    const block = new Set(seeds.slice(i, i + BLOCK_SEEDS));
    const cells = ds
      .map((d) => rows.filter((r) => r.d === d && block.has(r.seed)).map((r) => r.reward))
      .map((xs, j) => ({ d: ds[j], m: mean(xs) }))
      .filter((c) => !Number.isNaN(c.m));
    const rho = spearman(
      cells.map((c) => c.d),
      cells.map((c) => c.m),
    );
    out.push({ firstSeed: seeds[i], rho: Number.isNaN(rho) ? null : rho });
  }
  return out;
}

export function summarize(rows: readonly EpisodeRow[]): EvalSummary {
  const envs = [...new Set(rows.map((r) => r.env))];
  const ds = [...new Set(rows.map((r) => r.d))].sort((a, b) => a - b);
  const cells: CellSummary[] = [];
  const perEnv: EnvSummary[] = [];
  for (const env of envs) {
    const envRows = rows.filter((r) => r.env === env);
    const envCells: CellSummary[] = [];
    for (const d of ds) {
      const cellRows = envRows.filter((r) => r.d === d);
      if (cellRows.length > 0) envCells.push({ env, d, ...stats(cellRows) });
    }
    cells.push(...envCells);
    const rho = spearman(
      envCells.map((c) => c.d),
      envCells.map((c) => c.meanReward),
    );
    const terminations: EnvSummary['terminations'] = {};
    for (const r of envRows) terminations[r.termination] = (terminations[r.termination] ?? 0) + 1;
    perEnv.push({
      env,
      ...stats(envRows),
      rho: Number.isNaN(rho) ? null : rho,
      blockRhos: blockRhos(envRows, ds),
      terminations,
    });
  }
  return { envs, ds, cells, perEnv, overall: stats(rows) };
}

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
  terminations: Partial<Record<TerminationReason, number>>;
}

export interface EvalSummary {
  envs: EnvId[];
  ds: number[];
  cells: CellSummary[];
  perEnv: EnvSummary[];
  overall: { n: number; meanReward: number; passRate: number };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

function stats(rows: readonly EpisodeRow[]) {
  return {
    n: rows.length,
    meanReward: mean(rows.map((r) => r.reward)),
    passRate: mean(rows.map((r) => (r.isCorrect ? 1 : 0))),
  };
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
    perEnv.push({ env, ...stats(envRows), rho: Number.isNaN(rho) ? null : rho, terminations });
  }
  return { envs, ds, cells, perEnv, overall: stats(rows) };
}

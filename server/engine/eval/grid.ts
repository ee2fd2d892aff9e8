// The evaluation grid: which (env, d, seed) episodes to play, parsed from the
// CLI's compact notation ("0..12", "0,3,6", "all", "CART,PD").

import type { EnvId } from '../types';

export class UsageError extends Error {}

export interface GridCell {
  envId: EnvId;
  d: number;
  seed: number;
}

const INT = /^\d+$/;

/** "0..12" (inclusive), "0,3,6", "5", or a mix ("0..2,6,10..12"); sorted, deduplicated. */
export function parseDifficulties(spec: string): number[] {
  const text = spec.trim();
  if (text === '') throw new UsageError('--d needs a value, e.g. 0..12 or 0,3,6');
  const out = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const range = /^(\d+)\.\.(\d+)$/.exec(part);
    if (range) {
      const [lo, hi] = [Number(range[1]), Number(range[2])];
      if (lo > hi) throw new UsageError(`--d range "${part}" is empty: ${lo} > ${hi}`);
      for (let d = lo; d <= hi; d++) out.add(d);
    } else if (INT.test(part)) out.add(Number(part));
    else throw new UsageError(`--d: "${part}" is not a difficulty; use integers ≥ 0 like 0..12 or 0,3,6`);
  }
  return [...out].sort((a, b) => a - b);
}

/** "all" or a comma list of env ids (case-insensitive), checked against what is registered. */
export function parseEnvs(spec: string, available: readonly EnvId[]): EnvId[] {
  const text = spec.trim();
  if (text === '') throw new UsageError(`--envs needs a value: all or a list like ${available.slice(0, 2).join(',')}`);
  if (text.toLowerCase() === 'all') return [...available];
  const out: EnvId[] = [];
  for (const part of text.split(',').map((p) => p.trim().toUpperCase())) {
    if (!available.includes(part as EnvId))
      throw new UsageError(`--envs: unknown or unavailable environment "${part}"; available: ${available.join(', ')}`);
    if (!out.includes(part as EnvId)) out.push(part as EnvId);
  }
  return out;
}

/** A non-negative integer flag value; `min` is the smallest allowed. */
export function parseCount(flag: string, value: string, min: number): number {
  if (!INT.test(value.trim())) throw new UsageError(`${flag} must be an integer ≥ ${min}, got "${value}"`);
  const n = Number(value.trim());
  if (n < min) throw new UsageError(`${flag} must be an integer ≥ ${min}, got ${n}`);
  return n;
}

/** Every (env, d, seed), env-major so progress moves through one env at a time. */
export function expandGrid(
  envs: readonly EnvId[],
  ds: readonly number[],
  seedStart: number,
  seeds: number,
): GridCell[] {
  const cells: GridCell[] = [];
  for (const envId of envs)
    for (const d of ds) for (let s = 0; s < seeds; s++) cells.push({ envId, d, seed: seedStart + s });
  return cells;
}

// Plays an evaluation grid in-process. A crash in one episode is recorded on
// its row (termination "aborted", reward −1, the error text) and the run goes on,
// so one engine bug does not hide the rest of the table.

import type { Agent } from '../agents/types';
import type { Catalog } from '../catalog/types';
import { playEpisode } from '../play';
import type { EpisodeRow } from './aggregate';
import type { GridCell } from './grid';

export interface EvalRow extends EpisodeRow {
  error?: string;
}

export interface EvalRun {
  rows: EvalRow[];
  seconds: number;
  crashes: number;
}

export function playCell(cell: GridCell, catalog: Catalog, agent: Agent): EvalRow {
  try {
    const { episode } = playEpisode({ envId: cell.envId, d: cell.d, seed: cell.seed }, catalog, agent);
    const b = episode.breakdown!;
    return {
      env: cell.envId,
      d: cell.d,
      seed: cell.seed,
      reward: b.total,
      isCorrect: b.isCorrect,
      termination: episode.termination!,
      turns: episode.turn,
    };
  } catch (e) {
    const error =
      e instanceof Error
        ? `${e.message}${e.stack ? `\n${e.stack.split('\n').slice(1, 4).join('\n')}` : ''}`
        : String(e);
    return {
      env: cell.envId,
      d: cell.d,
      seed: cell.seed,
      reward: -1,
      isCorrect: false,
      termination: 'aborted',
      turns: 0,
      error,
    };
  }
}

export function runEval(
  cells: readonly GridCell[],
  catalog: Catalog,
  agent: Agent,
  onProgress?: (done: number, total: number, seconds: number) => void,
  now: () => number = () => performance.now(),
): EvalRun {
  const start = now();
  const rows: EvalRow[] = [];
  for (const cell of cells) {
    rows.push(playCell(cell, catalog, agent));
    onProgress?.(rows.length, cells.length, (now() - start) / 1000);
  }
  return { rows, seconds: (now() - start) / 1000, crashes: rows.filter((r) => r.error !== undefined).length };
}

// Batch runs: a connection × envs × d × seeds, with a concurrency limit, progress
// and cancel. Infrastructure failures are kept apart from rewards: an episode
// whose endpoint failed has no reward and is not in any mean or pass rate.

import type { Catalog, EnvId } from '@/server/engine';
import type { Connection } from './connection';
import { playModelEpisode, type ModelEpisodeResult, type ModelTurnRecord } from './driver';

export interface BatchCell {
  envId: EnvId;
  d: number;
  seed: number;
}

export interface BatchRow extends BatchCell {
  status: ModelEpisodeResult['status'];
  /** null unless completed. */
  reward: number | null;
  pass: boolean | null;
  termination: string | null;
  turns: number;
  infra?: ModelEpisodeResult['infra'];
  /** The actions stepped (replayable with the engine's replayEpisode). */
  actions: ModelEpisodeResult['actions'];
  records?: ModelTurnRecord[];
}

export interface BatchOptions {
  concurrency: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, row: BatchRow) => void;
  backoffMs?: number;
  /** Keep the per-turn request/response records in the rows (large). */
  keepRecords?: boolean;
  env?: Record<string, string | undefined>;
}

export function expandCells(envs: EnvId[], ds: number[], seeds: number[]): BatchCell[] {
  return envs.flatMap((envId) => ds.flatMap((d) => seeds.map((seed) => ({ envId, d, seed }))));
}

export async function runBatch(
  cells: BatchCell[],
  catalog: Catalog,
  connection: Connection,
  options: BatchOptions,
): Promise<{ rows: BatchRow[]; cancelled: boolean; seconds: number }> {
  const started = performance.now();
  const rows: BatchRow[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cells.length && !options.signal?.aborted) {
      const cell = cells[next++];
      const result = await playModelEpisode({ envId: cell.envId, d: cell.d, seed: cell.seed }, catalog, connection, {
        signal: options.signal,
        backoffMs: options.backoffMs,
        env: options.env,
      });
      if (result.status === 'cancelled') break;
      const completed = result.status === 'completed';
      const row: BatchRow = {
        ...cell,
        status: result.status,
        reward: completed ? result.episode.breakdown!.total : null,
        pass: completed ? result.episode.breakdown!.isCorrect : null,
        termination: result.episode.termination,
        turns: result.episode.turn,
        ...(result.infra ? { infra: result.infra } : {}),
        actions: result.actions,
        ...(options.keepRecords ? { records: result.records } : {}),
      };
      rows.push(row);
      options.onProgress?.(rows.length, cells.length, row);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, cells.length)) }, worker));
  const order = (c: BatchCell) => cells.findIndex((x) => x.envId === c.envId && x.d === c.d && x.seed === c.seed);
  rows.sort((a, b) => order(a) - order(b));
  return { rows, cancelled: options.signal?.aborted === true, seconds: (performance.now() - started) / 1000 };
}

export interface BatchCellSummary {
  envId: EnvId;
  d: number;
  /** Episodes that completed (scored). */
  n: number;
  meanReward: number | null;
  passRate: number | null;
  infraFailures: number;
}

export function summarizeBatch(rows: BatchRow[]): BatchCellSummary[] {
  const groups = new Map<string, BatchRow[]>();
  for (const row of rows) {
    const key = `${row.envId}|${row.d}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(row);
  }
  return [...groups.values()].map((group) => {
    const scored = group.filter((r) => r.status === 'completed');
    const n = scored.length;
    return {
      envId: group[0].envId,
      d: group[0].d,
      n,
      meanReward: n ? scored.reduce((s, r) => s + r.reward!, 0) / n : null,
      passRate: n ? scored.filter((r) => r.pass).length / n : null,
      infraFailures: group.filter((r) => r.status === 'infra_error').length,
    };
  });
}

/** env × d table: "mean reward / pass %" per cell; infrastructure failures in their own table. */
export function formatBatchTable(summary: BatchCellSummary[]): string {
  const envs = [...new Set(summary.map((s) => s.envId))];
  const ds = [...new Set(summary.map((s) => s.d))].sort((a, b) => a - b);
  const at = (e: string, d: number) => summary.find((s) => s.envId === e && s.d === d);
  const pad = (s: string, w: number) => s.padStart(w);
  const W = 11;
  const header = `${'env'.padEnd(8)}${ds.map((d) => pad(`d=${d}`, W)).join('')}`;
  const cell = (s?: BatchCellSummary) =>
    s?.meanReward == null ? '—' : `${s.meanReward.toFixed(2)} ${Math.round(s.passRate! * 100)}%`;
  const lines = [
    'mean reward and pass rate (scored episodes only)',
    header,
    ...envs.map((e) => `${e.padEnd(8)}${ds.map((d) => pad(cell(at(e, d)), W)).join('')}`),
  ];
  const infra = summary.reduce((s, c) => s + c.infraFailures, 0);
  if (infra > 0) {
    lines.push('', `infrastructure failures (not scored): ${infra}`, header);
    for (const e of envs)
      lines.push(`${e.padEnd(8)}${ds.map((d) => pad(String(at(e, d)?.infraFailures ?? 0), W)).join('')}`);
  } else lines.push('', 'infrastructure failures: none');
  return lines.join('\n');
}

export function progressBar(done: number, total: number, infra: number, seconds: number, width = 30): string {
  const filled = total ? Math.round((done / total) * width) : width;
  const rate = seconds > 0 ? done / seconds : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${total ? Math.floor((done / total) * 100) : 100}%  ${rate.toFixed(1)} ep/s  infra ${infra}`;
}

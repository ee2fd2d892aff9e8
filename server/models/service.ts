// The models service: plain functions the pages and routers call (connections with
// their conformance badge, one model turn, batch runs in the background). Nothing
// here returns a key: only whether the key's variable is set.

import { randomUUID } from 'node:crypto';
import type { Catalog } from '@/server/engine';
import { expandCells, runBatch, summarizeBatch, type BatchCell, type BatchCellSummary, type BatchRow } from './batch';
import { checkConformance, type ConformanceReport } from './conformance';
import type { Connection, ConnectionStore, Env } from './connection';

export { modelTurn, playModelEpisode, type ModelTurn, type ModelTurnRecord } from './driver';
export { expandCells };

/** A connection as the browser may see it. */
export interface PublicConnection extends Connection {
  /** null when the connection needs no key; otherwise whether its variable is set on the server. */
  apiKeySet: boolean | null;
}

export function publicConnection(connection: Connection, env: Env = process.env): PublicConnection {
  return { ...connection, apiKeySet: connection.apiKeyEnv ? Boolean(env[connection.apiKeyEnv]) : null };
}

export async function listConnections(store: ConnectionStore, env: Env = process.env): Promise<PublicConnection[]> {
  return (await store.list()).map((c) => publicConnection(c, env));
}

/** Validates and stores, then runs the conformance check (a failing check does not block saving: it is shown as a badge). */
export async function saveConnection(
  store: ConnectionStore,
  input: unknown,
  catalog: Catalog,
  env: Env = process.env,
): Promise<{ connection: PublicConnection; conformance: ConformanceReport }> {
  const connection = await store.save(input);
  const conformance = await checkConformance(connection, catalog, { env });
  return { connection: publicConnection(connection, env), conformance };
}

// ---------- batch runs, off the request thread ----------

export interface BatchRunStatus {
  id: string;
  connection: string;
  total: number;
  done: number;
  infraFailures: number;
  state: 'running' | 'finished' | 'cancelled';
  startedAt: string;
  summary: BatchCellSummary[];
  rows: BatchRow[];
}

interface LiveRun {
  status: BatchRunStatus;
  controller: AbortController;
  finished: Promise<void>;
}

const runs = new Map<string, LiveRun>();

export function startBatchRun(
  connection: Connection,
  cells: BatchCell[],
  catalog: Catalog,
  options: { concurrency: number; env?: Env; backoffMs?: number },
): string {
  const id = randomUUID();
  const controller = new AbortController();
  const status: BatchRunStatus = {
    id,
    connection: connection.name,
    total: cells.length,
    done: 0,
    infraFailures: 0,
    state: 'running',
    startedAt: new Date().toISOString(),
    summary: [],
    rows: [],
  };
  const finished = runBatch(cells, catalog, connection, {
    concurrency: options.concurrency,
    signal: controller.signal,
    env: options.env,
    backoffMs: options.backoffMs,
    onProgress: (done, _total, row) => {
      status.done = done;
      if (row.status === 'infra_error') status.infraFailures++;
    },
  }).then((run) => {
    status.rows = run.rows;
    status.summary = summarizeBatch(run.rows);
    status.state = run.cancelled ? 'cancelled' : 'finished';
  });
  runs.set(id, { status, controller, finished });
  return id;
}

export function batchRunStatus(id: string): BatchRunStatus | null {
  return runs.get(id)?.status ?? null;
}

/** Cancels a run and waits until its running episodes have stopped. */
export async function cancelBatchRun(id: string): Promise<BatchRunStatus | null> {
  const run = runs.get(id);
  if (!run) return null;
  run.controller.abort();
  await run.finished;
  return run.status;
}

export async function waitForBatchRun(id: string): Promise<BatchRunStatus | null> {
  const run = runs.get(id);
  if (!run) return null;
  await run.finished;
  return run.status;
}

'use server';
// Server actions for models at the table (thin): connections (admin when auth is on), one
// turn's players, forks and batch runs. A turn itself is streamed by /play/[episodeId]/model-turn.
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { boundText, RUN_BOUNDS } from '@/lib/run-bounds';
import { setEpisodeCookie } from './episode-cookie';
import { callerCredentials, serverAction, type ActionResult } from './server-action';
import { authConfig, isAdmin } from '@/server/auth';
import { tableConnectionNames } from '@/server/models/access';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { prisma } from '@/server/db';
import { episodeService } from '@/server/episodes';
import { AppError } from '@/server/lib/errors';
import type { ConformanceReport } from '@/server/models/conformance';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { listConnections, saveConnection, type PublicConnection } from '@/server/models/service';
import {
  cancelStoredRun,
  flippedTasks,
  runStats,
  startStoredRun,
  type FlippedTask,
  type RunCellStats,
} from '@/server/models/runs';
import { workerRunPlayer } from '@/server/models/run-player';
import { BUILT_IN_AGENTS, type BuiltInAgent, type TablePlayer } from '@/server/models/table';
import { ENV_IDS } from '@/server/engine/types';

const store = () => createPrismaConnectionStore(prisma);
const CONNECTIONS = { admin: 'model connections' };
const RUNS = { admin: 'batch runs' };
const runId = z.string().describe('run id');

// The last conformance report per connection, in this server process (shown as badges).
const g = globalThis as unknown as { __ecomConformance?: Map<string, ConformanceReport> };
const reports = (g.__ecomConformance ??= new Map());

export type ConnectionRow = PublicConnection & { conformance: ConformanceReport | null };

export async function listConnectionsAction(): Promise<ActionResult<ConnectionRow[]>> {
  return serverAction(CONNECTIONS, [], [], async () =>
    (await listConnections(store())).map((c) => ({ ...c, conformance: reports.get(c.name) ?? null })),
  );
}

/** Saves (insert or replace by name), then runs the conformance check; a bad connection is BAD_INPUT (ConnectionError). */
export async function saveConnectionAction(input: unknown): Promise<ActionResult<ConnectionRow>> {
  // checked by parseConnection, whose messages never echo a value that could be a key
  return serverAction(CONNECTIONS, [z.unknown()], [input], async (given) => {
    const { connection, conformance } = await saveConnection(store(), given, getCatalog());
    reports.set(connection.name, conformance);
    return { ...connection, conformance };
  });
}

export async function deleteConnectionAction(name: string): Promise<ActionResult<boolean>> {
  return serverAction(CONNECTIONS, [z.string().describe('connection name')], [name], async (checked) => {
    reports.delete(checked);
    return store().remove(checked);
  });
}

/**
 * The players the playground offers: connection names (no connection details; to a non-admin
 * with auth on only the public ones) and the built-in agents.
 */
export async function tablePlayersAction(): Promise<
  ActionResult<{ connections: string[]; agents: readonly BuiltInAgent[] }>
> {
  return serverAction('public', [], [], async () => ({
    connections: await tableConnectionNames(store(), isAdmin(authConfig(), await callerCredentials())),
    agents: BUILT_IN_AGENTS,
  }));
}

/** A new episode from the first `turn` turns of a stored one; opens its playground. */
export async function forkEpisodeAction(parentId: string, turn: number): Promise<ActionResult<never>> {
  const forked = await serverAction(
    { admin: 'forking an episode' }, // the replay is the inspector's
    [z.string().describe('episode id'), z.number().describe('turn')],
    [parentId, turn],
    async (parent, turns) => {
      const { capabilityToken, ...view } = await episodeService.forkEpisode(parent, turns);
      await setEpisodeCookie(view.id, capabilityToken);
      return view.id;
    },
  );
  if (!forked.ok) return forked;
  redirect(`/play/${forked.data}`);
}

// ---------- batch runs (admin when auth is on) ----------

export interface RunRow {
  id: string;
  createdAt: string;
  player: string;
  state: string;
  total: number;
  done: number;
  infraFailures: number;
}

export async function listRunsAction(): Promise<ActionResult<RunRow[]>> {
  return serverAction(RUNS, [], [], async () => {
    const rows = await prisma.modelRun.findMany({ orderBy: { createdAt: 'desc' }, take: 50 });
    return rows.map(({ id, createdAt, player, state, total, done, infraFailures }) => ({
      id,
      createdAt: createdAt.toISOString(),
      player,
      state,
      total,
      done,
      infraFailures,
    }));
  });
}

/** A whole number within one of RUN_BOUNDS, every failure worded the same way. */
const bounded = (b: { min: number; max: number }) =>
  z.int(boundText(b)).min(b.min, boundText(b)).max(b.max, boundText(b));
const dLevel = bounded(RUN_BOUNDS.d);
// Strict: an unknown environment or field is refused, not dropped, and nothing is clamped.
const runInput = z
  .strictObject({
    player: z.string().min(1, 'choose who plays').max(200),
    envs: z
      .array(z.enum(ENV_IDS, { error: (i) => `unknown environment ${JSON.stringify(i.input)}` }))
      .min(1, `choose at least one environment (${ENV_IDS.join(', ')})`)
      .refine((envs) => new Set(envs).size === envs.length, 'an environment is named twice'),
    dFrom: dLevel,
    dTo: dLevel,
    seeds: bounded(RUN_BOUNDS.seeds),
    concurrency: bounded(RUN_BOUNDS.concurrency).optional(),
  })
  .refine((r) => r.dFrom <= r.dTo, { message: 'the difficulty range is empty: d from is above d to', path: ['dTo'] })
  .describe('batch run');

const badInput = (message: string): never => {
  throw new AppError('BAD_INPUT', message);
};

export async function startRunAction(raw: z.input<typeof runInput>): Promise<ActionResult<string>> {
  return serverAction(RUNS, [runInput], [raw], async (input) => {
    const { envs, dFrom, dTo, concurrency = 1 } = input;
    let player: TablePlayer;
    if (input.player.startsWith('agent:')) {
      const agent = input.player.slice(6) as BuiltInAgent;
      if (!BUILT_IN_AGENTS.includes(agent)) badInput(`unknown built-in agent "${agent}"`);
      player = { kind: 'agent', agent };
    } else {
      const connection = await store().get(input.player.replace(/^connection:/, ''));
      if (!connection) throw new AppError('NOT_FOUND', `no model connection named "${input.player}"`);
      player = { kind: 'model', connection };
    }
    const ds = Array.from({ length: dTo - dFrom + 1 }, (_, i) => dFrom + i);
    const seeds = Array.from({ length: input.seeds }, (_, i) => i + 1);
    const run = await startStoredRun({ prisma, runPlayer: workerRunPlayer(), catalogId: DEFAULT_CATALOG_ID }, player, {
      envs,
      ds,
      seeds,
      concurrency,
    });
    void run.finished.catch((e) => console.error(`batch run ${run.id} stopped: ${(e as Error).message}`));
    return run.id;
  });
}

export async function cancelRunAction(id: string): Promise<ActionResult<boolean>> {
  return serverAction(RUNS, [runId], [id], async (checked) => cancelStoredRun(checked));
}

export async function runStatsAction(id: string): Promise<ActionResult<RunCellStats[]>> {
  return serverAction(RUNS, [runId], [id], (checked) => runStats(prisma, checked));
}

export async function flippedTasksAction(a: string, b: string): Promise<ActionResult<FlippedTask[]>> {
  return serverAction(RUNS, [runId, runId], [a, b], (first, second) => flippedTasks(prisma, first, second));
}

'use server';
// Server actions for models at the table (thin): connections (admin when auth is on), one
// turn's players, forks and batch runs. A turn itself is streamed by /play/[episodeId]/model-turn.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { setEpisodeCookie } from './episode-cookie';
import { authConfig, credentialsFrom, requireAdmin } from '@/server/auth';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { prisma } from '@/server/db';
import { episodeService } from '@/server/episodes';
import { AppError, toPublicError } from '@/server/lib/errors';
import { ConnectionError } from '@/server/models/connection';
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
import { ENV_IDS, type EnvId } from '@/server/engine/types';
import { z } from 'zod';

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; code?: string };

function failure(e: unknown): { ok: false; error: string; code?: string } {
  // a connection's validation message is precise and never echoes a secret
  if (e instanceof ConnectionError) return { ok: false, error: e.message, code: 'BAD_INPUT' };
  const pub = toPublicError(e);
  return { ok: false, error: pub.message, code: pub.code };
}

/** An action's string argument as posted (anything may arrive): a precise error instead of a crash. */
function textArg(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new AppError('BAD_INPUT', `${what} must be a string`);
  return value;
}

const store = () => createPrismaConnectionStore(prisma);
const creds = async () => credentialsFrom(await headers());

// The last conformance report per connection, in this server process (shown as badges).
const g = globalThis as unknown as { __ecomConformance?: Map<string, ConformanceReport> };
const reports = (g.__ecomConformance ??= new Map());

export type ConnectionRow = PublicConnection & { conformance: ConformanceReport | null };

export async function listConnectionsAction(): Promise<ActionResult<ConnectionRow[]>> {
  try {
    requireAdmin(authConfig(), await creds(), 'model connections');
    return {
      ok: true,
      data: (await listConnections(store())).map((c) => ({ ...c, conformance: reports.get(c.name) ?? null })),
    };
  } catch (e) {
    return failure(e);
  }
}

/** Saves (insert or replace by name), then runs the conformance check. */
export async function saveConnectionAction(input: unknown): Promise<ActionResult<ConnectionRow>> {
  try {
    requireAdmin(authConfig(), await creds(), 'model connections');
    const { connection, conformance } = await saveConnection(store(), input, getCatalog());
    reports.set(connection.name, conformance);
    return { ok: true, data: { ...connection, conformance } };
  } catch (e) {
    return failure(e);
  }
}

export async function deleteConnectionAction(name: string): Promise<ActionResult<boolean>> {
  try {
    requireAdmin(authConfig(), await creds(), 'model connections');
    textArg(name, 'connection name');
    reports.delete(name);
    return { ok: true, data: await store().remove(name) };
  } catch (e) {
    return failure(e);
  }
}

/** The players the playground offers: connection names (no connection details) and the built-in agents. */
export async function tablePlayersAction(): Promise<
  ActionResult<{ connections: string[]; agents: readonly BuiltInAgent[] }>
> {
  try {
    return { ok: true, data: { connections: (await store().list()).map((c) => c.name), agents: BUILT_IN_AGENTS } };
  } catch (e) {
    return failure(e);
  }
}

/** A new episode from the first `turn` turns of a stored one; opens its playground. */
export async function forkEpisodeAction(parentId: string, turn: number): Promise<ActionResult<never>> {
  let id: string;
  try {
    requireAdmin(authConfig(), await creds(), 'forking an episode'); // the replay is the inspector's
    const { capabilityToken, ...view } = await episodeService.forkEpisode(parentId, turn);
    id = view.id;
    await setEpisodeCookie(id, capabilityToken);
  } catch (e) {
    return failure(e);
  }
  redirect(`/play/${id}`);
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
  try {
    requireAdmin(authConfig(), await creds(), 'batch runs');
    const rows = await prisma.modelRun.findMany({ orderBy: { createdAt: 'desc' }, take: 50 });
    return {
      ok: true,
      data: rows.map(({ id, createdAt, player, state, total, done, infraFailures }) => ({
        id,
        createdAt: createdAt.toISOString(),
        player,
        state,
        total,
        done,
        infraFailures,
      })),
    };
  } catch (e) {
    return failure(e);
  }
}

// A server action is an endpoint anyone can post to: its input's shape is checked before use.
const runInput = z.object({
  player: z.string(),
  envs: z.array(z.string()),
  dFrom: z.number(),
  dTo: z.number(),
  seeds: z.number(),
  concurrency: z.number().optional(),
});

export async function startRunAction(raw: z.input<typeof runInput>): Promise<ActionResult<string>> {
  try {
    requireAdmin(authConfig(), await creds(), 'batch runs');
    const parsed = runInput.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, error: `batch run: ${issue.path.join('.') || 'input'}: ${issue.message}`, code: 'BAD_INPUT' };
    }
    const input = parsed.data;
    const envs = input.envs.filter((e): e is EnvId => (ENV_IDS as readonly string[]).includes(e));
    if (envs.length === 0)
      return { ok: false, error: `choose at least one environment (${ENV_IDS.join(', ')})`, code: 'BAD_INPUT' };
    if (
      !Number.isInteger(input.dFrom) ||
      !Number.isInteger(input.dTo) ||
      input.dFrom < 0 ||
      input.dTo > 12 ||
      input.dFrom > input.dTo
    )
      return { ok: false, error: 'difficulty range must be whole numbers with 0 ≤ from ≤ to ≤ 12', code: 'BAD_INPUT' };
    if (!Number.isInteger(input.seeds) || input.seeds < 1 || input.seeds > 50)
      return { ok: false, error: 'seeds must be a whole number from 1 to 50', code: 'BAD_INPUT' };
    const concurrency = Math.min(8, Math.max(1, Math.floor(input.concurrency || 1)));
    let player: TablePlayer;
    if (input.player.startsWith('agent:')) {
      const agent = input.player.slice(6) as BuiltInAgent;
      if (!BUILT_IN_AGENTS.includes(agent))
        return { ok: false, error: `unknown built-in agent "${agent}"`, code: 'BAD_INPUT' };
      player = { kind: 'agent', agent };
    } else {
      const connection = await store().get(input.player.replace(/^connection:/, ''));
      if (!connection) return { ok: false, error: `no model connection named "${input.player}"`, code: 'NOT_FOUND' };
      player = { kind: 'model', connection };
    }
    const ds = Array.from({ length: input.dTo - input.dFrom + 1 }, (_, i) => input.dFrom + i);
    const seeds = Array.from({ length: input.seeds }, (_, i) => i + 1);
    const run = await startStoredRun({ prisma, runPlayer: workerRunPlayer(), catalogId: DEFAULT_CATALOG_ID }, player, {
      envs,
      ds,
      seeds,
      concurrency,
    });
    void run.finished.catch((e) => console.error(`batch run ${run.id} stopped: ${(e as Error).message}`));
    return { ok: true, data: run.id };
  } catch (e) {
    return failure(e);
  }
}

export async function cancelRunAction(id: string): Promise<ActionResult<boolean>> {
  try {
    requireAdmin(authConfig(), await creds(), 'batch runs');
    return { ok: true, data: cancelStoredRun(textArg(id, 'run id')) };
  } catch (e) {
    return failure(e);
  }
}

export async function runStatsAction(id: string): Promise<ActionResult<RunCellStats[]>> {
  try {
    requireAdmin(authConfig(), await creds(), 'batch runs');
    return { ok: true, data: await runStats(prisma, textArg(id, 'run id')) };
  } catch (e) {
    return failure(e);
  }
}

export async function flippedTasksAction(a: string, b: string): Promise<ActionResult<FlippedTask[]>> {
  try {
    requireAdmin(authConfig(), await creds(), 'batch runs');
    return { ok: true, data: await flippedTasks(prisma, textArg(a, 'run id'), textArg(b, 'run id')) };
  } catch (e) {
    return failure(e);
  }
}

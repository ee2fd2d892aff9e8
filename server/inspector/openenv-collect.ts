// OpenEnv `collect` interchange (openenv/core/harness/collect.py, EpisodeRecord): an episode as
// one results.jsonl line, and back. The OpenEnv fields are the agent's view (messages in the
// OpenAI chat shape TRL's SFTTrainer reads, tool_trace, reward, done); the whole episode in the
// project's own format rides in `extra.ecomrlve`, so importing it back stores exactly what was
// exported (and re-scores it by replay). A results.jsonl written by OpenEnv's own collector
// against this server's MCP tools has no such extra: its tool_trace (one tools/call per turn,
// as mcp.ts maps them) is replayed from `task` {env, d, seed} into an episode.

import { z } from 'zod';
import { createEpisode, type Catalog, type EnvId } from '@/server/engine';
import type { Action, EpisodeEvent } from '@/server/engine/types';
import { actionForCall } from '@/server/env-server/mcp';
import type { ChatMessage } from '@/server/models/openai';
import { episodeLineSchema, FORMAT_NAME, type EpisodeLine } from './format';
import { lineOf } from './play';

/** OpenEnv's EpisodeRecord, as one line of results.jsonl. */
export const collectRecordSchema = z.object({
  episode_id: z.string(),
  messages: z.array(z.record(z.string(), z.unknown())),
  reward: z.number(),
  done: z.boolean(),
  tool_trace: z.array(
    z.object({
      tool_name: z.string(),
      arguments: z.record(z.string(), z.unknown()),
      result: z.record(z.string(), z.unknown()),
    }),
  ),
  metrics: z.record(z.string(), z.unknown()),
  verify_metrics: z.record(z.string(), z.unknown()),
  artifacts: z.record(z.string(), z.unknown()),
  task: z.unknown(),
  extra: z.record(z.string(), z.unknown()).default({}),
});

type CollectRecord = z.infer<typeof collectRecordSchema>;

const taskSchema = z.object({
  env: z.string(),
  d: z.int().min(0).max(100),
  seed: z.int().min(0),
  catalog: z.string().optional(),
});

/**
 * An exported episode (the project's line) as OpenEnv's EpisodeRecord; `messages`: its agent-seat
 * conversation in the OpenAI tool-calling shape (export.ts transcriptOf: what a model is sent).
 */
export function toCollectRecord(line: Omit<EpisodeLine, 'hiddenGoal'>, messages: ChatMessage[]): CollectRecord {
  const events = line.events as EpisodeEvent[];
  // one tools/call per tool call, the answer last in its turn (as the engine logs them; MCP's tool names)
  const trace: CollectRecord['tool_trace'] = events.flatMap((e) => {
    const metadata = { turn: e.turn };
    if (e.kind === 'tool_call')
      return [
        {
          tool_name: e.name,
          arguments: (e.args ?? {}) as Record<string, unknown>,
          result: { data: e.result, done: false, metadata, error: e.error },
        },
      ];
    if (e.kind !== 'answer') return [];
    const done = events.some((x) => x.kind === 'termination' && x.turn === e.turn);
    return [{ tool_name: 'answer', arguments: e.answer, result: { data: null, done, metadata, error: null } }];
  });
  const b = line.breakdown as { rTask?: number; rEff?: number; rHall?: number } | null;
  return {
    episode_id: line.id ?? '',
    messages,
    reward: line.reward ?? 0,
    done: line.status === 'done',
    tool_trace: trace,
    metrics: { turns: line.turn, tool_calls: trace.length },
    verify_metrics: { step_count: line.turn },
    artifacts: {
      termination: line.terminationReason,
      is_correct: line.isCorrect,
      reward_parts: b ? { r_task: b.rTask, r_eff: b.rEff, r_hall: b.rHall } : null,
    },
    task: { env: line.envId, d: line.d, seed: line.seed, catalog: line.catalogId },
    extra: { ecomrlve: line },
  };
}

/**
 * A results.jsonl line back as the project's line: the carried one when present, else the
 * episode replayed from `task` and the tool trace (one tools/call per turn, as MCP plays it).
 */
export function fromCollectRecord(
  record: CollectRecord,
  getCatalog: (id: string) => Catalog,
  defaultCatalogId: string,
): EpisodeLine {
  const carried = (record.extra as { ecomrlve?: { format?: unknown } }).ecomrlve;
  if (carried && carried.format === FORMAT_NAME) {
    const parsed = episodeLineSchema.safeParse(carried);
    if (!parsed.success) throw new Error(`extra.ecomrlve is not a valid ${FORMAT_NAME} line`);
    return parsed.data;
  }
  const task = taskSchema.safeParse(record.task);
  if (!task.success) throw new Error('an OpenEnv record needs task {env, d, seed} (or extra.ecomrlve) to replay');
  const { env, d, seed } = task.data;
  const catalogId = task.data.catalog ?? defaultCatalogId;
  const episode = createEpisode({ envId: env as EnvId, d, seed }, getCatalog(catalogId));
  episode.reset();
  const actions: Action[] = [];
  for (const call of record.tool_trace) {
    if (episode.done) throw new Error('the tool trace goes on after the episode ended');
    const action = actionForCall(env, call.tool_name, call.arguments);
    if (!action) throw new Error(`tool "${call.tool_name}" is not a ${env} tool`);
    actions.push(action);
    episode.step(action);
  }
  const breakdown = episode.breakdown;
  if (breakdown && Math.abs(breakdown.total - record.reward) > 1e-9)
    throw new Error(`the replay's reward ${breakdown.total} is not the record's ${record.reward}`);
  const id = /^[A-Za-z0-9_-]{1,64}$/.test(record.episode_id) ? record.episode_id : undefined;
  return lineOf(episode, catalogId, actions, { player: 'openenv-collect', id });
}

// The model driver: from what the agent seat saw, one chat request; from the
// reply, one engine action. Every turn records exactly what was sent and what
// came back. A turn whose transport failed (after retries) is an infrastructure
// failure: the episode is not stepped and no reward is given for it. Episodes are
// played turn by turn at the table (table.ts) or by the batch runs' loop (run-play.ts).

import type { Action, EpisodeConfig } from '@/server/engine';
import {
  callModel,
  requestBody,
  type AttemptRecord,
  type ChatReply,
  type PartialReply,
  type InfraKind,
} from './client';
import type { Connection, Env } from './connection';
import type { ChatRequest } from './openai';
import { openAiTools } from './prompt';
import { actionFromReply, buildMessages, type SeatHistory } from './transcript';

/** The header through which the local agent server receives an episode's public config. */
export const EPISODE_HEADER = 'x-ecomrlve-episode';

export interface ModelTurnRecord {
  /** The agent turn this request decides (1-based). */
  turn: number;
  /** Who acted, as stored with the event: "model:<connection name>". */
  actor: string;
  mode: Connection['actionMode'];
  /** The exact body sent (the key is only ever in a header, which is not recorded). */
  request: ChatRequest;
  attempts: AttemptRecord[];
  reply: ChatReply | null;
  /** The action handed to the engine (a string in JSON mode: the model's text). */
  action: Action | string | null;
}

export type ModelTurn =
  | { ok: true; action: Action | string; record: ModelTurnRecord }
  | { ok: false; infra: { kind: InfraKind; message: string }; record: ModelTurnRecord };

export interface DriverOptions {
  signal?: AbortSignal;
  /** First retry pause (doubles each time); tests shorten it. */
  backoffMs?: number;
  onPartial?: (partial: PartialReply) => void;
  /** The episode's public config, sent only when the connection asks for the episode header. */
  episodeConfig?: EpisodeConfig;
  env?: Env;
}

export function buildRequest(connection: Connection, history: SeatHistory): ChatRequest {
  const envId = history.observations[0].envId;
  const messages = buildMessages(history, connection.actionMode);
  return connection.actionMode === 'tools'
    ? requestBody(connection, { messages, tools: openAiTools(envId), tool_choice: 'auto' })
    : requestBody(connection, { messages });
}

/** One model turn. Throws CancelledError when the signal aborts; never throws for a transport failure. */
export async function modelTurn(
  connection: Connection,
  history: SeatHistory,
  options: DriverOptions = {},
): Promise<ModelTurn> {
  const envId = history.observations[0].envId;
  const request = buildRequest(connection, history);
  const { signal, backoffMs, onPartial, env, episodeConfig } = options;
  const headers =
    connection.sendEpisodeHeader && episodeConfig
      ? { [EPISODE_HEADER]: JSON.stringify(publicConfig(episodeConfig)) }
      : undefined;
  const { infra, attempts, reply } = await callModel(connection, request, {
    signal,
    backoffMs,
    onPartial,
    env,
    headers,
  });
  const record: ModelTurnRecord = {
    turn: history.actions.length + 1,
    actor: `model:${connection.name}`,
    mode: connection.actionMode,
    request,
    attempts,
    reply,
    action: null,
  };
  if (infra) return { ok: false, infra: { kind: infra.kind, message: infra.message }, record };
  record.action = actionFromReply(envId, connection.actionMode, {
    content: reply!.content,
    tool_calls: reply!.toolCalls,
  });
  return { ok: true, action: record.action, record };
}

const publicConfig = ({ envId, d, seed, axisOverrides }: EpisodeConfig) => ({
  envId,
  d,
  seed,
  ...(axisOverrides ? { axisOverrides } : {}),
});

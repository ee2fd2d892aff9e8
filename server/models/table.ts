// Models at the table: one turn of a STORED episode taken by a connected model or a
// built-in agent, through the same episode service the playground uses. The model gets
// only the agent seat's payloads (the seat view's events and its own stored actions,
// turned back into engine observations); the step records who acted and, for a model,
// the request sent and the reply (never a key). A transport failure after retries is an
// infrastructure failure: the episode is not stepped and the failure is marked on it.

import type { Action, Catalog, Episode, EpisodeConfig } from '@/server/engine';
import type { EpisodeService } from '@/server/episodes/service';
import { toSeatView, type SeatView } from '@/server/episodes/seat';
import { actionArgument } from '@/server/episodes/store';
import { decide, type BuiltInAgent, type HeuristicDrivers, type Sampling } from './agents';
import { callModel, requestBody, type AttemptRecord, type ChatReply, type PartialReply } from './client';
import type { Connection, Env } from './connection';
import type { ChatRequest } from './openai';
import { openAiTools } from './prompt';
import { actionFromReply, buildMessages, seatHistory, type SeatHistory } from './transcript';

/** The header through which the local agent server receives an episode's public config. */
export const EPISODE_HEADER = 'x-ecomrlve-episode';

/** What a model's turn sent and got back, stored with the turn's action (never a key). */
export interface ModelTurnRecord {
  /** The agent turn this request decides (1-based). */
  turn: number;
  /** Who acted, as stored with the event: "model:<connection name>". */
  actor: string;
  mode: Connection['actionMode'];
  /** The exact body sent (the key is only ever in a header, which is not recorded). */
  request: ChatRequest;
  attempts: AttemptRecord[];
  reply: ChatReply;
  /** The action handed to the engine (a string in JSON mode: the model's text). */
  action: Action | string | null;
}

/** The chat request for the seat's history: the prompt, the transcript and, in tools mode, the env's tools. */
export function buildRequest(connection: Connection, history: SeatHistory): ChatRequest {
  const envId = history.observations[0].envId;
  const messages = buildMessages(history, connection.actionMode);
  return connection.actionMode === 'tools'
    ? requestBody(connection, { messages, tools: openAiTools(envId), tool_choice: 'auto' })
    : requestBody(connection, { messages });
}

/** `sampling`: a group's rollout (a model gets its connection's seed + sampling.seed, and the temperature if set). */
export type TablePlayer = ({ kind: 'model'; connection: Connection } | { kind: 'agent'; agent: BuiltInAgent }) & {
  sampling?: Sampling;
};

export const actorOf = (p: TablePlayer) => (p.kind === 'model' ? `model:${p.connection.name}` : p.agent);

/** Why a turn was not played: a model call that failed in the infrastructure after retries (a batch run also: a size cap, an internal error). */
export type TurnInfra = { kind: string; message: string; turn: number };

export type TableTurn =
  { ok: true; actor: string; episode: SeatView } | { ok: false; actor: string; infra: TurnInfra; episode: SeatView };

export interface TableOptions {
  signal?: AbortSignal;
  backoffMs?: number;
  env?: Env;
  onPartial?: (partial: PartialReply) => void;
  /** The episode at this turn when the caller plays it in-process (the oracle reads it instead of a replay). */
  episode?: Episode;
  /** The heuristic's driver kept between this episode's turns (none: it replays every observation). */
  drivers?: HeuristicDrivers;
}

/** What a player chose for the turn in hand, or the infrastructure failure that stopped it. */
export type TableChoice = { ok: true; action: Action | string; modelRecord?: string } | { ok: false; infra: TurnInfra };

/**
 * The player's action for the next turn, from the agent seat's view only. The one decision of
 * both paths that play at the table: a stored episode through the service (playTableTurn) and a
 * batch run's episode in a worker thread (run-play.ts), so both choose the same actions.
 */
export async function chooseTableAction(
  player: TablePlayer,
  seat: Pick<SeatView, 'envId' | 'events' | 'budgets'>,
  actions: Array<Action | string>,
  config: EpisodeConfig,
  catalog: () => Catalog,
  options: TableOptions = {},
): Promise<TableChoice> {
  const history = seatHistory(seat, actions);
  if (player.kind === 'agent') {
    // Built-in agents run in-process; only the oracle reads the goal (it is the answer key, by design).
    const action = decide(
      player.agent,
      { envId: seat.envId, mode: 'tools', observations: history.observations, actions },
      {
        cache: options.drivers,
        episodeConfig: config,
        allowOracle: true,
        catalog,
        randomSeed: 0,
        episode: options.episode,
        sampling: player.sampling,
      },
    );
    return { ok: true, action };
  }
  // A model's turn: a transport failure after retries is an infrastructure failure (not stepped);
  // a cancel throws CancelledError.
  const { connection: c, sampling: s } = player;
  const connection = s ? { ...c, temperature: s.temperature ?? c.temperature, seed: (c.seed ?? 0) + s.seed } : c;
  const request = buildRequest(connection, history);
  const { envId, d, seed, axisOverrides } = config;
  const publicConfig = { envId, d, seed, ...(axisOverrides ? { axisOverrides } : {}) };
  const { signal, backoffMs, onPartial, env } = options;
  const headers = connection.sendEpisodeHeader ? { [EPISODE_HEADER]: JSON.stringify(publicConfig) } : undefined;
  const call = await callModel(connection, request, { signal, backoffMs, onPartial, env, headers });
  const turn = actions.length + 1;
  if (!call.ok) return { ok: false, infra: { kind: call.infra.kind, message: call.infra.message, turn } };
  const { attempts, reply } = call;
  const action = actionFromReply(envId, connection.actionMode, { content: reply.content, tool_calls: reply.toolCalls });
  const record: ModelTurnRecord = {
    turn,
    actor: actorOf(player),
    mode: connection.actionMode,
    request,
    attempts,
    reply,
    action,
  };
  return { ok: true, action, modelRecord: JSON.stringify(record) };
}

/** One turn of a stored, active episode by a model or a built-in agent. */
export async function playTableTurn(
  service: EpisodeService,
  catalog: (id: string) => Catalog,
  episodeId: string,
  player: TablePlayer,
  options: TableOptions = {},
): Promise<TableTurn> {
  const view = await service.getEpisode(episodeId);
  const seat = toSeatView(view);
  const actor = actorOf(player);
  if (seat.status === 'done') return { ok: true, actor, episode: seat };
  const actions = (await service.getActions(episodeId)).map(actionArgument);
  const config = {
    envId: view.envId,
    d: view.d,
    seed: view.seed,
    ...(Object.keys(view.axisOverrides).length ? { axisOverrides: view.axisOverrides } : {}),
  };
  const choice = await chooseTableAction(player, seat, actions, config, () => catalog(view.catalogId), options);
  if (!choice.ok) {
    await service.setInfraError(episodeId, choice.infra);
    return { ok: false, actor, infra: choice.infra, episode: toSeatView(await service.getEpisode(episodeId)) };
  }
  const after = await service.submitAction(episodeId, choice.action, { actor, modelRecord: choice.modelRecord });
  return { ok: true, actor, episode: toSeatView(after) };
}

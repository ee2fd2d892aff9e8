// The env-server operations, independent of transport: HTTP (node:http and the Next route) and
// the WebSocket session both call these and send what they return. Nothing here builds an
// agent-facing message from the hidden goal: observations come from the engine (which never
// puts the goal in one), and only adminState — simulation mode, admin token — adds it.

import { randomInt } from 'node:crypto';
import { createEpisode, type Catalog, type StepResult } from '@/server/engine';
import type { EnvServerConfig } from './config';
import { EnvServerError, asEnvServerError, writeFailure } from './errors';
import { MAX_SEED } from '@/server/episodes/inputs';
import { resetRequestSchema, stepRequestSchema, type ResetRequest } from './schemas';
import { StepConflictError, storedAction, trainerPlayer } from '@/server/episodes/recorder';
import { stepHeld } from '@/server/episodes/step';
import type { LiveEpisode, LiveEpisodes, StoredLog } from '@/server/episodes/live';
import { createSessions, type Sessions } from '@/server/episodes/sessions';
import type { TokenService } from '@/server/episodes/tokens';
import { newEpisodeId } from '@/server/episodes/writer';
import { AppError, isAppError } from '@/server/lib/errors';
import { checkAction, parse, wireAction } from './action-check';
import { healthOf, infoOf, metadataOf, schemaFor } from './server-info';
import { agentState, type ResetResponse, type StepResponse } from './openenv-wire';

export { SERVER_VERSION } from './server-info';
export type { AgentState, ResetResponse, StepResponse } from './openenv-wire';

export interface EnvServiceDeps {
  config: EnvServerConfig;
  catalog: Catalog;
  /**
   * The live episodes, their capability checks, rebuild from the store and step (server/episodes/
   * sessions.ts, step.ts): without a store, the only copy; in the Next app, the episode service's own.
   */
  sessions: Sessions;
}

/** Attempts at a step whose write collides with another worker's (each rebuilds first). */
const STEP_ATTEMPTS = 4;

function respond(live: Pick<LiveEpisode, 'id'>, result: StepResult): StepResponse {
  const b = result.breakdown;
  return {
    episode_id: live.id,
    observation: result.observation,
    reward: result.reward,
    done: result.done,
    termination: result.termination,
    reward_parts: b ? { r_task: b.rTask, r_eff: b.rEff, r_hall: b.rHall, is_correct: b.isCorrect } : null,
  };
}

/**
 * The sessions of a server that serves one catalog (serve:env): a stored episode played on
 * another catalog cannot be continued here. Without a store (reads and its recorder), episodes
 * live in memory only.
 */
export function catalogSessions(
  catalog: Catalog,
  live: LiveEpisodes,
  tokens: TokenService,
  store: Partial<Pick<Sessions, 'reads' | 'recorder'>> | null = null,
): Sessions {
  const catalogFor = (catalogId: string) => {
    if (catalogId === catalog.id) return catalog;
    throw new AppError('BAD_INPUT', `it was played on catalog ${catalogId}, this worker serves ${catalog.id}`);
  };
  return createSessions({ live, tokens, reads: store?.reads ?? null, recorder: store?.recorder ?? null, catalogFor });
}

/** The episode layer's refusals (a full cache, a log this worker cannot replay) in the protocol's words. */
function protocolError(e: unknown, id: string | null): unknown {
  if (!isAppError(e)) return e;
  if (e.code === 'BUSY') return new EnvServerError('CAPACITY_REACHED', e.message);
  return new EnvServerError('EXECUTION_ERROR', `episode "${id}" cannot be continued on this worker: ${e.message}`, id);
}

export function createEnvService(deps: EnvServiceDeps) {
  const { config, catalog, sessions } = deps;
  const { live: held, tokens, reads, recorder } = sessions;

  /** Whether the caller may act on (or, with allowAdmin, read) the episode. One sentence per refusal. */
  function checkToken(id: string, token: string | null, allowAdmin: boolean, live?: LiveEpisode): void {
    if (!token)
      throw new EnvServerError(
        'BAD_TOKEN',
        `episode "${id}": no capability token; send the token from reset as "Authorization: Bearer <token>"`,
        id,
      );
    if (sessions.allows(id, token, live)) return;
    if (!tokens.isAdmin(token))
      throw new EnvServerError('BAD_TOKEN', `episode "${id}": the token is not this episode's capability token`, id);
    if (!allowAdmin)
      throw new EnvServerError(
        'BAD_TOKEN',
        `episode "${id}": stepping needs the episode's capability token (the admin token only reads)`,
        id,
      );
  }

  const dropped = `dropped after ${Math.round(held.idleMs / 1000)} s idle or to make room`;
  /** Not held here. Without a store, another worker may hold it: a valid token says it was started on this server. */
  const unknown = (id: string, token: string | null) =>
    new EnvServerError(
      'UNKNOWN_EPISODE',
      !reads && config.workers > 1 && token && tokens.allows(token, id)
        ? `episode "${id}" is in the memory of another of this server's ${config.workers} workers (persistence off), or it was ${dropped}: ` +
            'step an HTTP episode over the keep-alive connection that reset it, or use a WebSocket session, or run serve:env with --persist on or --workers 1'
        : `unknown episode_id "${id}": it was never started on this server, or it was ${dropped}`,
      id,
    );

  /** A held episode for a caller; `connection`: the WebSocket session that reset it (the connection is the capability). */
  function authorise(id: string, token: string | null, allowAdmin: boolean, connection = false): LiveEpisode {
    const live = held.get(id);
    if (!live) throw unknown(id, token);
    if (!(connection && live.issuedToken === token)) checkToken(id, token, allowAdmin, live);
    return live;
  }

  /** Resolves once everything this episode did so far is committed; a failed write closes the episode. */
  async function durable<T extends { episode_id: string }>(response: T): Promise<T> {
    try {
      await sessions.durable(response.episode_id);
    } catch (e) {
      if (e instanceof StepConflictError) throw e; // stepEpisode rebuilds and tries again
      throw writeFailure(e, response.episode_id);
    }
    return response;
  }

  function reset(body: unknown): { live: LiveEpisode; response: ResetResponse } {
    const req: ResetRequest = parse(resetRequestSchema, body ?? {}, 'reset');
    if (req.axis_overrides && config.mode === 'production')
      throw new EnvServerError(
        'PRODUCTION_MODE',
        'axis_overrides is simulation control; this server runs in production mode',
      );
    // Production mode hides the seed: the open engine regenerates the hidden goal from it.
    if (req.seed !== undefined && config.mode === 'production')
      throw new EnvServerError(
        'PRODUCTION_MODE',
        'seed is simulation control; in production mode the server draws the seed and keeps it',
      );
    const seed = req.seed ?? randomInt(0, MAX_SEED + 1);
    const id = req.episode_id ?? newEpisodeId();
    if (held.has(id)) throw new EnvServerError('EPISODE_EXISTS', `reset: episode_id "${id}" is already in use`, id);
    const episodeConfig = {
      envId: req.env as never,
      d: req.d,
      seed,
      ...(req.axis_overrides ? { axisOverrides: req.axis_overrides } : {}),
    };
    let episode;
    try {
      episode = createEpisode(episodeConfig, catalog);
    } catch (e) {
      throw new EnvServerError('VALIDATION_ERROR', `reset: ${(e as Error).message}`);
    }
    let live: LiveEpisode;
    try {
      // trainerReset: played as trainer:<run>, no customer voice (a step need not read its row)
      const fresh = { id, config: episodeConfig, run: req.run ?? null, episode, steps: 0, trainerReset: true };
      live = sessions.add({ ...fresh, answered: new Map() });
    } catch (e) {
      throw protocolError(e, id);
    }
    let result: StepResult;
    try {
      result = episode.reset();
    } catch (e) {
      held.drop(id);
      throw asEnvServerError(e, id);
    }
    if (recorder)
      sessions.track(id, recorder.reset(live, result, { trainStep: req.train_step, rolloutGroup: req.group }));
    const token = tokens.issue(id);
    // A WebSocket session never presents it again (the connection is the capability): hash it on first use.
    live.issuedToken = token;
    return {
      live,
      // train_step and group are echoed only when sent (JSON drops undefined)
      response: {
        ...respond(live, result),
        token,
        env: req.env,
        d: req.d,
        seed,
        run: live.run,
        train_step: req.train_step,
        group: req.group,
      },
    };
  }

  /** One turn of a held episode (the caller has already proven it may act on it). */
  function stepLive(live: LiveEpisode, action: unknown, stepKey: string | null = null): StepResponse {
    const parsedAction = wireAction(action, live.id);
    if (live.episode.done)
      throw new EnvServerError(
        'EPISODE_DONE',
        `episode "${live.id}" is over (${live.episode.termination}); reset to start another`,
        live.id,
      );
    try {
      const actor = trainerPlayer(live.run);
      const record = storedAction(parsedAction);
      return respond(live, stepHeld(sessions, live, parsedAction as never, record, { stepKey, actor }).result);
    } catch (e) {
      throw asEnvServerError(e, live.id);
    }
  }

  /**
   * The episode for a caller: from this worker's LRU or, on a miss with a store, rebuilt from
   * it (the token is checked first: a bad token costs no store read). `stored` is set when the
   * episode was just rebuilt.
   */
  async function hold(id: string, token: string | null, allowAdmin: boolean, connection = false) {
    try {
      return { live: authorise(id, token, allowAdmin, connection), stored: null };
    } catch (e) {
      if (!reads || !(e instanceof EnvServerError && e.code === 'UNKNOWN_EPISODE')) throw e;
    }
    checkToken(id, token, allowAdmin);
    let found;
    try {
      found = await sessions.hold(id);
    } catch (e) {
      throw protocolError(e, id);
    }
    if (!found)
      throw new EnvServerError('UNKNOWN_EPISODE', `unknown episode_id "${id}": no worker has recorded it`, id);
    return found;
  }

  /** The stored answer to a step already taken under this key, replayed (deterministic), or null. */
  function storedAnswer(stored: StoredLog | null, stepKey: string | null): StepResponse | null {
    const index = stored && stepKey ? stored.actions.findIndex((a) => a.stepKey === stepKey) : -1;
    if (index < 0) return null;
    try {
      return respond(stored!.row, sessions.replay(stored!, index).result!);
    } catch (e) {
      throw protocolError(e, stored!.row.id);
    }
  }

  /**
   * One step on any worker: the episode comes from this worker's LRU or is rebuilt from the
   * store. If another worker stepped it meanwhile, the write collides (StepConflictError), nothing
   * is stored, and the step is retried on a fresh rebuild. A step key makes retries idempotent:
   * the same key gets the stored result, on any worker. `connection`: the WebSocket session that
   * reset the episode (the connection is the capability; no token check while this worker holds it).
   */
  async function stepEpisode(
    id: string,
    token: string | null,
    action: unknown,
    stepKey: string | null,
    connection = false,
  ): Promise<StepResponse> {
    for (let attempt = 1; ; attempt++) {
      const { live, stored } = await hold(id, token, false, connection);
      const answered =
        (stepKey && (live.answered.get(stepKey)?.response as StepResponse)) || storedAnswer(stored, stepKey);
      if (answered) return answered;
      // A transport's structured action must match the published schema (in-process callers may step anything).
      if (typeof action === 'object' && action !== null && !Array.isArray(action))
        checkAction(live.config.envId, action, id);
      try {
        const response = await durable(stepLive(live, action, stepKey));
        // A finished episode is in the store now: holding it (~50 KB each, up to the LRU's
        // capacity) would only make the garbage collector copy and mark it; a later state read
        // or step-key retry rebuilds it like any miss.
        if (reads && live.episode.done) held.drop(id);
        else if (stepKey) live.answered.set(stepKey, { response });
        return response;
      } catch (e) {
        if (!(e instanceof StepConflictError)) throw e;
        if (attempt >= STEP_ATTEMPTS)
          throw new EnvServerError(
            'EXECUTION_ERROR',
            `episode "${id}" was stepped by other workers ${attempt} times while this step ran; send it again`,
            id,
          );
      }
    }
  }

  function stateId(episodeId: string | null): string {
    if (!episodeId) throw new EnvServerError('VALIDATION_ERROR', 'state: the episode_id query parameter is required');
    return parse(stepRequestSchema.shape.episode_id, episodeId, 'state: episode_id');
  }

  /** Inspector-side state (hidden goal, axes, world, events, evidence): simulation mode only. */
  function adminState(live: LiveEpisode) {
    if (config.mode === 'production')
      throw new EnvServerError(
        'PRODUCTION_MODE',
        'the full state (hidden goal, events) is simulation control; this server runs in production mode',
        live.id,
      );
    const e = live.episode;
    return {
      ...agentState(live),
      hidden_goal: e.hiddenGoal(),
      axes: e.axes,
      world: e.world(),
      events: e.events,
      breakdown: e.breakdown,
    };
  }

  /**
   * State of one episode: agent-visible with its capability token, full with the admin token;
   * rebuilt on a miss. With a store, a held copy is first checked against the stored event count
   * (one small read; state is not on the step path), so a worker never reports a turn another
   * worker has moved past.
   */
  async function stateRequest(episodeId: string | null, token: string | null) {
    const id = stateId(episodeId);
    let { live } = await hold(id, token, true);
    if (reads && !sessions.pending(id) && (await reads.eventCount(id)) !== live.episode.events.length) {
      held.drop(id);
      ({ live } = await hold(id, token, true));
    }
    return tokens.isAdmin(token) ? adminState(live) : agentState(live);
  }

  return {
    config,
    /** The live episodes (the transports look one up, or drop an abandoned one). */
    sessions: held,
    recorder,
    reset,
    stepLive,
    stepEpisode,
    /** The episode for a caller that acts on it (MCP: its env decides the tools), rebuilt on a miss. */
    holdEpisode: (id: string, token: string | null, connection = false) => hold(id, token, false, connection),
    durable,
    stateRequest,
    schema: schemaFor,
    metadata: () => metadataOf(config),
    info: () => infoOf(config, catalog, tokens, recorder !== null, held),
    health: healthOf,
  };
}

export type EnvService = ReturnType<typeof createEnvService>;

// The env-server operations, independent of transport: HTTP (node:http and the Next route) and
// the WebSocket session both call these and send what they return. Nothing here builds an
// agent-facing message from the hidden goal: observations come from the engine (which never
// puts the goal in one), and only adminState — simulation mode, admin token — adds it.

import { randomInt, randomUUID } from 'node:crypto';
import { createEpisode, type Catalog, type StepResult } from '@/server/engine';
import type { EnvServerConfig } from './config';
import { EnvServerError, asEnvServerError } from './errors';
import {
  MAX_SEED,
  describeIssues,
  resetRequestSchema,
  stepRequestSchema,
  wireActionSchema,
  type ResetRequest,
} from './schemas';
import { SessionStore, newEpisodeId, type LiveEpisode } from './sessions';
import { rebuildEpisode, type EpisodeLog, type StoredEpisode } from './live-episodes';
import { StepConflictError, type Recorder } from './recorder';
import type { TokenService } from '@/server/episodes/tokens';
import { createEpisodeAccess } from './episode-access';
import { checkAction } from './action-check';
import { adminState, agentState } from './episode-state';
import { healthOf, infoOf, metadataOf, schemaFor } from './server-info';
import type { z } from 'zod';
import { actionValueProblem } from '@/server/lib/action-value';
import { MAX_ACTION_BYTES } from '@/server/episodes/inputs';

export { SERVER_VERSION } from './server-info';
export type { AgentState } from './episode-state';

export interface StepResponse {
  episode_id: string;
  observation: StepResult['observation'];
  reward: number;
  done: boolean;
  termination: string | null;
  reward_parts: { r_task: number; r_eff: number; r_hall: number; is_correct: boolean } | null;
}

export interface ResetResponse extends StepResponse {
  token: string;
  env: string;
  d: number;
  seed: number;
  run: string | null;
  /** echoed when sent: what the episode was recorded under */
  train_step?: number;
  group?: string;
}

export interface EnvServiceDeps {
  config: EnvServerConfig;
  catalog: Catalog;
  tokens: TokenService;
  sessions: SessionStore;
  /** Absent: episodes live in memory only. */
  recorder?: Recorder | null;
  /** The store recorded episodes are rebuilt from on a miss (stateless workers); absent: no rebuild. */
  log?: EpisodeLog | null;
}

/** Attempts at a step whose write collides with another worker's (each rebuilds first). */
const STEP_ATTEMPTS = 4;

function parse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  episodeId: string | null = null,
): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new EnvServerError('VALIDATION_ERROR', `${what}: ${describeIssues(r.error)}`, episodeId);
  return r.data;
}

/**
 * The wire action: text, or a plain object as JSON.parse makes them, taken as they are (what the
 * schema would return, without its per-key copy); anything else goes through the schema for its
 * error message.
 */
function wireAction(action: unknown, episodeId: string): unknown {
  if (typeof action === 'string') return storable(action, Buffer.byteLength(action, 'utf8'), episodeId);
  if (typeof action === 'object' && action !== null && Object.getPrototypeOf(action) === Object.prototype)
    return storable(action, null, episodeId);
  return parse(wireActionSchema, action, 'step: action', episodeId);
}

/**
 * What the recorder stores must replay as sent and stay within the stored-action limit: an
 * action that would not (server/lib/action-value.ts) or is larger is refused before the engine.
 */
function storable(action: unknown, bytes: number | null, episodeId: string): unknown {
  const problem = actionValueProblem(action);
  if (problem) throw new EnvServerError('VALIDATION_ERROR', `step: ${problem}`, episodeId);
  const size = bytes ?? Buffer.byteLength(JSON.stringify(action), 'utf8');
  if (size > MAX_ACTION_BYTES)
    throw new EnvServerError(
      'BODY_TOO_LARGE',
      `step: the action is ${size} bytes; the limit is ${MAX_ACTION_BYTES} bytes (64 KB). Nothing was stored.`,
      episodeId,
    );
  return action;
}

const UNIQUE_VIOLATION = /unique constraint|duplicate key/i;

/**
 * A failed write in one sentence without the database's text: a reset whose episode_id is
 * already stored (another worker's, or one from before a restart) is a 409; anything else is
 * logged with a reference the answer names.
 */
function writeFailure(e: unknown, episodeId: string): EnvServerError {
  const message = String((e as Error)?.message ?? e);
  if (UNIQUE_VIOLATION.test(message))
    return new EnvServerError(
      'EPISODE_EXISTS',
      `episode_id "${episodeId}" is already stored; reset with another episode_id, or none to get a new one`,
      episodeId,
    );
  const ref = randomUUID().slice(0, 8);
  console.error(`[serve:env] error ${ref}: episode ${episodeId}: ${message}`);
  return new EnvServerError(
    'EXECUTION_ERROR',
    `the episode could not be stored (error ${ref} in the server log); it is closed, reset to start another`,
    episodeId,
  );
}

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

export function createEnvService(deps: EnvServiceDeps) {
  const { config, catalog, tokens, sessions } = deps;
  const { authorise, checkToken } = createEpisodeAccess(tokens, sessions);
  const recorder = deps.recorder ?? null;
  const log = deps.log ?? null;
  /** Each episode's latest write, awaited by the transport before it answers (acknowledged = durable). */
  const writes = new Map<string, Promise<void>>();
  const track = (id: string, write: Promise<void>) => {
    write.catch(() => {}); // awaited through durable(); never an unhandled rejection
    writes.set(id, write);
  };

  /** Resolves once everything this episode did so far is committed; a failed write closes the episode. */
  async function durable<T extends { episode_id: string }>(response: T): Promise<T> {
    const write = writes.get(response.episode_id);
    if (!write) return response;
    try {
      await write;
    } catch (e) {
      sessions.drop(response.episode_id);
      if (e instanceof StepConflictError) throw e; // stepEpisode rebuilds and tries again
      throw writeFailure(e, response.episode_id);
    } finally {
      if (writes.get(response.episode_id) === write) writes.delete(response.episode_id);
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
    if (sessions.has(id)) throw new EnvServerError('EPISODE_EXISTS', `reset: episode_id "${id}" is already in use`, id);
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
    const live = sessions.add({
      id,
      config: episodeConfig,
      run: req.run ?? null,
      episode,
      steps: 0,
      answered: new Map(),
    });
    let result: StepResult;
    try {
      result = episode.reset();
    } catch (e) {
      sessions.drop(id);
      throw asEnvServerError(e, id);
    }
    if (recorder) track(id, recorder.reset(live, result, { trainStep: req.train_step, rolloutGroup: req.group }));
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
    let result: StepResult;
    try {
      result = live.episode.step(parsedAction as never);
    } catch (e) {
      throw asEnvServerError(e, live.id);
    }
    live.steps++;
    if (recorder) track(live.id, recorder.step(live, parsedAction, result, stepKey));
    return respond(live, result);
  }

  function parseStep(body: unknown) {
    const id =
      typeof (body as { episode_id?: unknown })?.episode_id === 'string'
        ? (body as { episode_id: string }).episode_id
        : null;
    return parse(stepRequestSchema, body, 'step', id);
  }

  /** A step of an episode this worker holds (in-process callers and tests; transports use stepRequest). */
  function step(body: unknown, bearer: string | null): StepResponse {
    const req = parseStep(body);
    const live = authorise(req.episode_id, bearer ?? req.token ?? null, false);
    return stepLive(live, req.action);
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
      if (!log || !(e instanceof EnvServerError && e.code === 'UNKNOWN_EPISODE')) throw e;
    }
    checkToken(id, token, allowAdmin);
    const stored = await log.load(id);
    if (!stored)
      throw new EnvServerError('UNKNOWN_EPISODE', `unknown episode_id "${id}": no worker has recorded it`, id);
    // Another request may have rebuilt it while this one read the store.
    if (sessions.has(id)) return { live: sessions.get(id), stored };
    return { live: sessions.add(rebuildEpisode(stored, catalog).live), stored };
  }

  /** The stored answer to a step already taken under this key, replayed (deterministic), or null. */
  function storedAnswer(stored: StoredEpisode | null, stepKey: string | null): StepResponse | null {
    const index = stored && stepKey ? stored.stepKeys.indexOf(stepKey) : -1;
    if (index < 0) return null;
    const { result } = rebuildEpisode(stored!, catalog, index);
    return respond(stored!, result!);
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
      const answered = (stepKey && live.answered.get(stepKey)) || storedAnswer(stored, stepKey);
      if (answered) return answered as StepResponse;
      // A transport's structured action must match the published schema (in-process callers may step anything).
      if (typeof action === 'object' && action !== null && !Array.isArray(action))
        checkAction(live.config.envId, action, id);
      try {
        const response = await durable(stepLive(live, action, stepKey));
        // A finished episode is in the store now: holding it (~50 KB each, up to the LRU's
        // capacity) would only make the garbage collector copy and mark it; a later state read
        // or step-key retry rebuilds it like any miss.
        if (log && live.episode.done) sessions.drop(id);
        else if (stepKey) live.answered.set(stepKey, response);
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

  /** Transport step (HTTP): the body names the episode, the token comes from the header or the body. */
  function stepRequest(body: unknown, bearer: string | null): Promise<StepResponse> {
    const req = parseStep(body);
    return stepEpisode(req.episode_id, bearer ?? req.token ?? null, req.action, req.step_key ?? null);
  }

  function stateId(episodeId: string | null): string {
    if (!episodeId) throw new EnvServerError('VALIDATION_ERROR', 'state: the episode_id query parameter is required');
    return parse(stepRequestSchema.shape.episode_id, episodeId, 'state: episode_id');
  }

  /** State of one episode this worker holds: agent-visible with its capability token, full with the admin token. */
  function state(episodeId: string | null, token: string | null) {
    const live = authorise(stateId(episodeId), token, true);
    return tokens.isAdmin(token) ? adminState(live, config.mode) : agentState(live);
  }

  /**
   * Transport state (HTTP, WebSocket): as state(), rebuilding the episode on a miss. With a
   * store, a held copy is first checked against the stored event count (one small read; state is
   * not on the step path), so a worker never reports a turn another worker has moved past.
   */
  async function stateRequest(episodeId: string | null, token: string | null) {
    const id = stateId(episodeId);
    let { live } = await hold(id, token, true);
    if (log && !writes.has(id) && (await log.eventCount(id)) !== live.episode.events.length) {
      sessions.drop(id);
      ({ live } = await hold(id, token, true));
    }
    return tokens.isAdmin(token) ? adminState(live, config.mode) : agentState(live);
  }

  return {
    config,
    sessions,
    recorder,
    reset,
    step,
    stepLive,
    stepEpisode,
    stepRequest,
    /** The episode for a caller that acts on it (MCP: its env decides the tools), rebuilt on a miss. */
    holdEpisode: (id: string, token: string | null, connection = false) => hold(id, token, false, connection),
    durable,
    state,
    stateRequest,
    agentState,
    adminState: (live: LiveEpisode) => adminState(live, config.mode),
    schema: schemaFor,
    metadata: () => metadataOf(config),
    info: () => infoOf(config, catalog, tokens, recorder !== null, sessions),
    health: healthOf,
  };
}

export type EnvService = ReturnType<typeof createEnvService>;

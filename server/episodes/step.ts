// One step of an episode, for every seat: the playground and connected models (submitAction
// below, through the episode service) and the trainer API (server/env-server/protocol.ts) take
// their turns through stepHeld, over the one session layer (sessions.ts). Each seat keeps only
// its own mapping: how it parses an action and which answer it gives (a view, an OpenEnv answer).
import type { StepResult } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { Action } from '@/server/engine/types';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import { actionRecord, idSchema, parse, stepKeySchema } from './inputs';
import type { LiveEpisode } from './live';
import type { Sessions } from './sessions';
import { viewOf, type EpisodeStore } from './store';
import { StepConflictError, type storedAction } from './recorder';
import { EpisodeServiceError, type ActionInput, type EpisodeView } from './types';
import { goalDataIsDerived, storedGoalOf } from './stored-goal';
import { withActor } from './provenance';
import { personActionError } from '@/lib/play-limits';

/** Who takes a step, and how a retry finds it. */
export interface StepOptions {
  /** the client's idempotency key of the step */
  stepKey?: string | null;
  /** who acted: 'human', 'model:<name>', 'trainer:<run>', a built-in agent (provenance.ts) */
  actor?: string | null;
  /** JSON ModelTurnRecord of a model's turn (never a key) */
  modelRecord?: string | null;
}

/**
 * One turn of a held episode (its caller has checked that it may act on it): the engine steps,
 * the step is recorded (the store's group commit), and once that is committed the player is
 * derived again from who acted, the LLM customer rewrites the customer's message when the
 * episode has one, and the held episode keeps its row as stored. The engine's result comes back
 * at once; `stored` resolves with the row as stored (null: memory only) once all of that is
 * committed, and the sessions await it before any answer (durable). The engine throwing or the
 * write failing drops the held episode: the next request rebuilds it from the store.
 */
export function stepHeld(
  sessions: Sessions,
  held: LiveEpisode,
  action: string | Action,
  record: ReturnType<typeof storedAction>,
  opts: StepOptions = {},
): { result: StepResult; stored: Promise<EpisodeRow | null> } {
  const row = held.row;
  held.row = undefined; // set again only once this step has fully succeeded
  const ep = held.episode;
  const turnBefore = ep.turn;
  let result: StepResult;
  try {
    result = ep.step(action);
  } catch (e) {
    sessions.live.drop(held.id); // its state is unknown now
    throw e;
  }
  held.steps++;
  const { recorder, reads } = sessions;
  if (!recorder) return { result, stored: Promise.resolve(null) };
  const actor = opts.actor ?? null;
  const write = recorder.step(held, record, result, {
    stepKey: opts.stepKey,
    actor,
    modelRecord: opts.modelRecord,
    // the goal in the row's own shape: in full where it was stored so (the playground's)
    fullGoal: row && !goalDataIsDerived(row.hiddenGoal) ? () => JSON.stringify(storedGoalOf(ep)) : undefined,
  });
  const stored = write.then(async (recorded) => {
    // Not held (a row another write made stale): as stored now. A trainer's own episode has
    // nothing to keep: its actor is its player, and it has no customer voice.
    const before = row ?? (held.trainerReset ? null : await reads?.getRow(held.id));
    if (!before) return null;
    const player = withActor(before.player, turnBefore, actor);
    if (player !== before.player) await reads!.setPlayer(held.id, player);
    await sessions.rewriteCustomer?.(held.id, before.customerVoice, result.events);
    const { progress } = recorded;
    const after: EpisodeRow = {
      ...before,
      ...progress,
      hiddenGoal: progress.hiddenGoal ?? before.hiddenGoal,
      player,
      storedBytes: row ? row.storedBytes + recorded.addedBytes : before.storedBytes,
      infraError: null,
      updatedAt: new Date(),
    };
    // Kept only on the copy this step moved, and only if no other seat moved or rebuilt it
    // while this step's write was committing.
    if (sessions.live.peek(held.id) === held && ep.events.length === after.eventCount) held.row = after;
    return after;
  });
  sessions.track(held.id, stored);
  return { result, stored };
}

/** What the playground's step needs of the episode service. */
export interface StepContext {
  sessions: Sessions;
  store: EpisodeStore;
  maxEvents: number;
  maxBytes: number;
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  requireRow(id: string): Promise<EpisodeRow>;
  liveEpisode(row: EpisodeRow): Promise<LiveEpisode>;
  viewAt(row: EpisodeRow, eventEnd: number | null): Promise<EpisodeView>;
  catalogFor(catalogId: string): Catalog;
  voiced(view: EpisodeView): Promise<EpisodeView>;
}

/**
 * One agent turn of the playground or a connected model: under the episode's lock, a retried
 * step key answered as that step left the episode, the caps checked, then stepHeld; the answer
 * is the episode's view. A held episode keeps its row as this process last wrote it, and the
 * step keys it answered, so a step reads nothing from the store; a write another process made
 * meanwhile fails the step's conditional update (CONFLICT) instead.
 */
export async function submitAction(
  ctx: StepContext,
  episodeId: string,
  action: ActionInput,
  opts: { stepKey?: string | null; actor?: string; modelRecord?: string } = {},
): Promise<EpisodeView> {
  const { sessions, store, maxEvents, maxBytes, requireRow, viewAt, catalogFor, voiced } = ctx;
  const { live } = sessions;
  const id = parse(idSchema, episodeId, 'episode id');
  const stepKey = opts.stepKey == null ? null : parse(stepKeySchema, opts.stepKey, 'step key');
  const { stepArg, record } = actionRecord(action);
  const tooLong = opts.actor === 'human' ? personActionError(stepArg) : null;
  if (tooLong) throw new EpisodeServiceError('TOO_LARGE', `${tooLong} Nothing was sent to the episode.`);

  return ctx.withLock(id, async () => {
    const cached = live.get(id)?.row;
    const row = cached ?? (await requireRow(id));
    if (stepKey) {
      const done = cached ? live.peek(id)!.answered.get(stepKey) : await store.findStep(id, stepKey);
      if (done) return voiced(await viewAt(row, done.eventEnd ?? null));
    }
    if (row.status === 'done') {
      throw new EpisodeServiceError(
        'EPISODE_DONE',
        `episode ${id} is finished (${row.terminationReason ?? 'done'}); it takes no more actions`,
      );
    }
    if (row.eventCount >= maxEvents || row.storedBytes >= maxBytes) {
      throw new EpisodeServiceError(
        'LIMIT',
        `episode ${id} has reached its size cap (${row.eventCount} events, ${row.storedBytes} bytes; caps ${maxEvents} events, ${maxBytes} bytes); it takes no more actions`,
      );
    }
    const held = await ctx.liveEpisode(row);
    held.row = row;
    let after: EpisodeRow;
    try {
      const { stored } = stepHeld(sessions, held, stepArg, record, { ...opts, stepKey });
      await sessions.durable(id);
      after = (await stored)!;
    } catch (e) {
      live.drop(id); // memory may be a step ahead of the store: rebuild from it next time
      if (!(e instanceof StepConflictError)) throw e;
      // The episode may be gone (deleted: NOT_FOUND), or the key's step stored already (before a
      // restart, or by another process): answer it.
      const fresh = await requireRow(id);
      const done = stepKey ? await store.findStep(id, stepKey) : null;
      if (done) return voiced(await viewAt(fresh, done.eventEnd));
      throw new EpisodeServiceError('CONFLICT', `episode ${id} was changed by another writer; reload and try again`);
    }
    if (stepKey && held.row === after) held.answered.set(stepKey, { eventEnd: after.eventCount });
    return voiced(viewOf(after, [...held.episode.events], catalogFor));
  });
}

// One agent turn of the episode service: under the episode's lock, a retried step key answered
// as that step left the episode, the caps checked, the live episode stepped (rebuilt by replay
// when not in memory) and the step recorded through the one step path (recorder.ts: the
// store's group commit); on any failure the live episode is dropped, so the next request
// rebuilds it from what is really stored. A held episode keeps its row as this process last
// wrote it, and the step keys it answered, so a step reads nothing from the store; a write
// another process made meanwhile fails the step's conditional update (CONFLICT) instead.
import type { Catalog } from '@/server/engine/catalog/types';
import type { EpisodeEvent } from '@/server/engine/types';
import type { Episode as EpisodeRow } from '@/server/generated/prisma/client';
import { actionRecord, idSchema, parse, stepKeySchema } from './inputs';
import type { LiveEpisode, LiveEpisodes } from './live';
import { viewOf, type EpisodeStore } from './store';
import { StepConflictError, type Recorder } from './recorder';
import { EpisodeServiceError, type ActionInput, type EpisodeView } from './types';
import { storedGoalOf } from './stored-goal';
import { withActor } from './provenance';
import { personActionError } from '@/lib/play-limits';

/** What a step needs of the episode service. */
export interface StepContext {
  store: EpisodeStore;
  recorder: Recorder;
  live: LiveEpisodes;
  maxEvents: number;
  maxBytes: number;
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  requireRow(id: string): Promise<EpisodeRow>;
  liveEpisode(row: EpisodeRow): Promise<LiveEpisode>;
  viewAt(row: EpisodeRow, eventEnd: number | null): Promise<EpisodeView>;
  catalogFor(catalogId: string): Catalog;
  voiced(view: EpisodeView): Promise<EpisodeView>;
  rewriteCustomer(episodeId: string, voice: string | null, events: readonly EpisodeEvent[]): Promise<void>;
}

export async function submitAction(
  ctx: StepContext,
  episodeId: string,
  action: ActionInput,
  opts: { stepKey?: string | null; actor?: string; modelRecord?: string } = {},
): Promise<EpisodeView> {
  const { store, live, maxEvents, maxBytes, requireRow, viewAt, catalogFor, voiced } = ctx;
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
    held.row = undefined; // set again only once this step has fully succeeded
    const ep = held.episode;
    const turnBefore = ep.turn; // every step() call takes one turn, so this is also the action's seq
    let result;
    try {
      result = ep.step(stepArg);
      held.steps++;
    } catch (e) {
      live.drop(id); // its state is unknown now; rebuild from the store next time
      throw e;
    }
    let recorded;
    try {
      recorded = await ctx.recorder.step(held, record, result, {
        stepKey,
        actor: opts.actor ?? null,
        modelRecord: opts.modelRecord ?? null,
        goal: JSON.stringify(storedGoalOf(ep)), // in full; JOURNEY's goal moves on with its sub-tasks
      });
    } catch (e) {
      live.drop(id); // memory is one step ahead of the store: drop it
      if (!(e instanceof StepConflictError)) throw e;
      // The episode may be gone (deleted: NOT_FOUND), or the key's step stored already (before a
      // restart, or by another process): answer it.
      const fresh = await requireRow(id);
      const done = stepKey ? await store.findStep(id, stepKey) : null;
      if (done) return voiced(await viewAt(fresh, done.eventEnd));
      throw new EpisodeServiceError('CONFLICT', `episode ${id} was changed by another writer; reload and try again`);
    }
    // the player is derived from who took the turns (a rare write: only when it changes)
    const player = withActor(row.player, turnBefore, opts.actor ?? null);
    if (player !== row.player) await store.setPlayer(id, player);
    await ctx.rewriteCustomer(id, row.customerVoice, result.events);
    // the row as this step stored it (the recorder's progress columns)
    const after: EpisodeRow = {
      ...row,
      ...recorded.progress,
      player,
      storedBytes: row.storedBytes + recorded.addedBytes,
      infraError: null,
      updatedAt: new Date(),
    };
    // Kept only on the copy this step moved, and only if no other seat (a trainer's step or state
    // read in this process) moved or rebuilt it while this step's write was committing.
    const kept = live.peek(id);
    if (kept === held && ep.events.length === after.eventCount) {
      kept.row = after;
      if (stepKey) kept.answered.set(stepKey, { eventEnd: after.eventCount });
    }
    return voiced(viewOf(after, [...ep.events], catalogFor));
  });
}

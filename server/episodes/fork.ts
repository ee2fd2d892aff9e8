// Forking an episode: a new episode whose first `turns` turns are the parent's, replayed. Its
// events are byte-identical to the parent's up to that point and its actions (with who took them,
// and a model's records) are copied; the LLM customer's messages of those turns are the parent's.
import { replayEpisode, replayRefusal } from '@/server/engine';
import { actionArgument, configOfRow, viewOf } from './store';
import { EpisodeServiceError, type EpisodeView } from './types';
import { storedGoalOf } from './stored-goal';
import { playerOf } from './provenance';
import type { StartContext } from './start';
import type { StepContext } from './step';

export interface ForkOptions {
  player?: string;
  runId?: string;
}

/** What a fork needs of the episode service: a start's and a step's context share it. */
type ForkContext = Pick<
  StartContext & StepContext,
  'store' | 'live' | 'requireRow' | 'loadCatalog' | 'catalogFor' | 'voiced' | 'tokens'
>;

export async function forkEpisode(
  { store, live, requireRow, loadCatalog, catalogFor, voiced, tokens }: ForkContext,
  parentId: string,
  turns: number,
  opts: ForkOptions = {},
): Promise<EpisodeView & { capabilityToken: string }> {
  const parent = await requireRow(parentId);
  const refusal = replayRefusal(parent.engineVersion, parent.envId);
  if (refusal) throw new EpisodeServiceError('REPLAY_UNSUPPORTED', `episode ${parent.id}: ${refusal}`);
  const actions = await store.getActions(parent.id);
  await loadCatalog(parent.catalogId);
  if (!Number.isInteger(turns) || turns < 0 || turns > actions.length)
    throw new EpisodeServiceError(
      'BAD_INPUT',
      `fork turn must be a whole number from 0 to ${actions.length} (the parent's turns); got ${turns}`,
    );
  const copied = actions.slice(0, turns);
  const ep = replayEpisode(configOfRow(parent), catalogFor(parent.catalogId), copied.map(actionArgument));
  if (ep.done)
    throw new EpisodeServiceError(
      'BAD_INPUT',
      `the parent episode ended at turn ${ep.turn}: fork at an earlier turn to continue it`,
    );
  const row = await store.createEpisode(
    ep,
    {
      catalogId: parent.catalogId,
      weights: parent.weights,
      // derived from who took the copied turns, like any episode's (provenance.ts)
      player: playerOf(
        opts.player ?? 'human',
        copied.map((a) => a.actor),
      ),
      hiddenGoal: JSON.stringify(storedGoalOf(ep)),
      parentId: parent.id,
      forkTurn: turns,
      runId: opts.runId ?? null,
      customerVoice: parent.customerVoice,
    },
    copied.map(({ format, raw, actor, modelRecord, eventEnd }) => ({
      format,
      raw,
      actor,
      modelRecord,
      eventEnd: eventEnd ?? ep.events.length,
    })),
  );
  live.keep(ep, row.id, turns, row);
  // the LLM customer's messages of the copied turns are the parent's, as recorded
  for (const { turn, template, text, by, fallback, record } of await store.getRewrites(parent.id))
    if (turn <= turns) await store.addRewrite({ episodeId: row.id, turn, template, text, by, fallback, record });
  return { ...(await voiced(viewOf(row, [...ep.events], catalogFor))), capabilityToken: tokens.issue(row.id) };
}

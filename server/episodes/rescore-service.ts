// The re-score service: used by the replay page (tRPC replay.rescore) and `npm run rescore`
// (scripts/rescore-cli.ts, which also picks the episodes of `--all`).
import type { PrismaClient } from '@/server/generated/prisma/client';
import { REWARD_REVISION } from '@/server/engine/reward';
import type { Catalog } from '@/server/engine/catalog/types';
import type { RewardBreakdown, TerminationReason } from '@/server/engine/types';
import { rescoreActions, toRescoreView, type RescoreView } from './rescore';
import { actionArgument, configOfRow, episodeReads } from './store';
import { EpisodeServiceError } from './types';

export interface RescoreDeps {
  prisma: PrismaClient;
  getCatalog: (catalogId?: string) => Catalog;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function createRescoreService(deps: RescoreDeps) {
  const store = episodeReads(deps.prisma);

  async function rescoreEpisode(episodeId: string): Promise<RescoreView> {
    if (typeof episodeId !== 'string' || !ID.test(episodeId))
      throw new EpisodeServiceError('BAD_INPUT', `episode id ${JSON.stringify(episodeId)} is not an episode id`);
    const row = await store.getRow(episodeId);
    if (!row) throw new EpisodeServiceError('NOT_FOUND', `no episode with id "${episodeId}"`);
    if (row.status !== 'done')
      throw new EpisodeServiceError(
        'BAD_INPUT',
        `episode ${row.id} is still active; only a finished episode can be re-scored`,
      );
    const [actions, events] = await Promise.all([store.getActions(row.id), store.getEvents(row.id)]);
    let outcome;
    try {
      outcome = rescoreActions(configOfRow(row), deps.getCatalog(row.catalogId), actions.map(actionArgument), {
        revision: row.rewardRevision,
        reward: row.reward,
        isCorrect: row.isCorrect,
        terminationReason: (row.terminationReason as TerminationReason | null) ?? null,
        breakdown: row.breakdown ? (JSON.parse(row.breakdown) as RewardBreakdown) : null,
        eventPayloads: events.map((e) => e.payload),
      });
    } catch (e) {
      throw new EpisodeServiceError(
        'BAD_INPUT',
        `episode ${row.id} cannot be replayed under revision ${REWARD_REVISION}: ${(e as Error).message}`,
      );
    }
    const saved = await deps.prisma.episodeRescore.create({
      data: {
        episodeId: row.id,
        fromRevision: outcome.fromRevision,
        toRevision: outcome.toRevision,
        replay: outcome.replay,
        note: outcome.note,
        reward: outcome.reward,
        isCorrect: outcome.isCorrect,
        terminationReason: outcome.terminationReason,
        breakdown: outcome.breakdown ? JSON.stringify(outcome.breakdown) : null,
        components: JSON.stringify(outcome.components),
      },
    });
    return toRescoreView(saved, oldOf(row));
  }

  const oldOf = (row: {
    rewardRevision: number;
    reward: number | null;
    isCorrect: boolean | null;
    terminationReason: string | null;
  }) => ({
    revision: row.rewardRevision,
    reward: row.reward,
    isCorrect: row.isCorrect,
    terminationReason: (row.terminationReason as TerminationReason | null) ?? null,
  });

  return {
    currentRevision: REWARD_REVISION,
    rescoreEpisode,

    /** Re-scores of one episode, newest first. */
    async listRescores(episodeId: string): Promise<RescoreView[]> {
      const row = await store.getRow(episodeId);
      if (!row) throw new EpisodeServiceError('NOT_FOUND', `no episode with id "${episodeId}"`);
      const rows = await deps.prisma.episodeRescore.findMany({
        where: { episodeId: row.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return rows.map((r) => toRescoreView(r, oldOf(row)));
    },
  };
}

export type RescoreService = ReturnType<typeof createRescoreService>;

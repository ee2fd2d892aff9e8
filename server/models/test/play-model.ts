// One episode played by a connected model through the batch runs' loop (run-play.ts), in the
// shape the model-path tests read: completed, infra_error, or cancelled (aborted before it ended).
import type { Catalog, EnvId, EpisodeConfig } from '@/server/engine';
import type { Connection } from '../connection';
import type { ModelTurnRecord } from '../table';
import { playRunCell } from '../run-play';
import type { TableOptions } from '../table';

export async function playModelEpisode(
  config: EpisodeConfig,
  catalog: Catalog,
  connection: Connection,
  options: Pick<TableOptions, 'backoffMs' | 'env' | 'onPartial' | 'signal'> = {},
) {
  const { signal = new AbortController().signal, ...turnOptions } = options;
  const cell = { envId: config.envId as EnvId, d: config.d, seed: config.seed };
  const job = { player: { kind: 'model' as const, connection }, maxEvents: Infinity, maxBytes: Infinity };
  const episode = await playRunCell(cell, job, catalog, signal, turnOptions);
  const status = episode.done ? 'completed' : signal.aborted ? 'cancelled' : 'infra_error';
  return {
    status,
    episode,
    infra: status === 'infra_error' ? episode.infra : null,
    actions: episode.actions.map((a) => (a.format === 'json' ? JSON.parse(a.raw) : a.raw)),
    records: episode.actions.map((a) => JSON.parse(a.modelRecord!) as ModelTurnRecord),
  };
}

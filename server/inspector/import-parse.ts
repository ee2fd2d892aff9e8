// Parsing import lines: JSON, which kind of line, its schema, the record and the rows it
// becomes. Pure: no database.
import type { Catalog } from '@/server/engine/catalog/types';
import type { Action, EnvId } from '@/server/engine/types';
import { axesFor } from '@/server/engine/difficulty';
import type { AxisValues } from '@/server/engine/difficulty';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import { episodeLineSchema, FORMAT_NAME, type EpisodeLine } from './format';
import type { ImportLineReport, ImportOptions } from './import';
import { chatLineSchema } from './import-openai';
import { collectRecordSchema, fromCollectRecord } from './openenv-collect';
import { prepareEpisode, type EpisodeRecord, type PreparedEpisode } from './insert';
import { partsOf, pendingRescore, rescoreByReplay, noRescore } from './rescore';
import type { z } from 'zod';

type OwnLineOptions = Pick<ImportOptions, 'getCatalog' | 'rescore' | 'runLabel'>;
type ImportKind = NonNullable<ImportLineReport['kind']>;
export type ChatLine = z.infer<typeof chatLineSchema>;

export const zodMessage = (issues: Array<{ path: PropertyKey[]; message: string }>) =>
  issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`)
    .join('; ') + (issues.length > 3 ? ` (+${issues.length - 3} more)` : '');

export function ownToRecord(
  line: EpisodeLine,
  opts: OwnLineOptions,
  fileName: string,
  replayNow: boolean,
): EpisodeRecord {
  const breakdown = line.breakdown as RewardBreakdown | null;
  let rescored = noRescore('re-scoring was turned off for this import');
  if (opts.rescore !== false) {
    if (line.actions.length > 0 && !replayNow) rescored = pendingRescore();
    else if (line.actions.length === 0)
      rescored = noRescore('no actions were recorded, so the engine cannot replay it');
    else {
      let catalog: Catalog | null = null;
      try {
        catalog = opts.getCatalog(line.catalogId);
      } catch {
        rescored = noRescore(`catalog "${line.catalogId}" is not available here`);
      }
      if (catalog) {
        const acts = line.actions.map((a) => (a.format === 'json' ? (JSON.parse(a.raw) as Action) : a.raw));
        rescored = rescoreByReplay(
          {
            envId: line.envId as EnvId,
            d: line.d,
            seed: line.seed,
            axisOverrides: line.axisOverrides,
            weights: line.weights,
          },
          acts,
          catalog,
          breakdown ? partsOf(breakdown) : null,
        );
      }
    }
  }
  return {
    id: line.id,
    createdAt: line.createdAt,
    envId: line.envId,
    d: line.d,
    seed: line.seed,
    axisOverrides: line.axisOverrides as Partial<AxisValues>,
    axes:
      (line.axes as unknown as AxisValues | undefined) ?? axesFor(line.d, line.axisOverrides as Partial<AxisValues>),
    weights: line.weights,
    catalogId: line.catalogId,
    status: line.status,
    terminationReason: line.terminationReason,
    reward: line.reward,
    isCorrect: line.isCorrect,
    breakdown,
    turn: line.turn,
    player: line.player,
    hiddenGoal: line.hiddenGoal as EpisodeRecord['hiddenGoal'],
    events: line.events as EpisodeEvent[],
    actions: line.actions,
    goalRevealed: line.goalRevealed,
    origin: line.origin ?? 'engine',
    rewardRevision: line.rewardRevision,
    runLabel: line.runLabel ?? opts.runLabel ?? null,
    recorded: line.recorded ?? null,
    rescored: { ...rescored, breakdown: null, file: fileName },
    prompts: line.prompts,
  };
}

/** An episode turned into rows, with what its report line says once it is stored. */
export interface ReadyEpisode {
  prepared: PreparedEpisode;
  recordedReward: number | null;
  rescoredReward: number | null;
  message: string;
}

export function readyEpisode(rec: EpisodeRecord): ReadyEpisode {
  const rs = rec.rescored as { reward: number | null; method: string; note: string } | null;
  return {
    prepared: prepareEpisode(rec),
    recordedReward: rec.reward,
    rescoredReward: rs?.reward ?? null,
    message: `imported ${rec.envId} d=${rec.d} seed=${rec.seed}; ${!rs ? 'shown as recorded' : rs.method === 'pending' ? 're-scored when first opened' : rs.method !== 'none' ? `re-scored (${rs.method})` : `shown as recorded: ${rs.note}`}`,
  };
}

/** One parsed line: an error for the report, or how to make the record to store. */
export type ParsedLine = { line: number; kind?: ImportKind } & ({ error: string } | { make: () => EpisodeRecord });

/** How each kind of line becomes a record (made when it is stored). */
export interface LineMakers {
  own: (episode: EpisodeLine) => EpisodeRecord;
  chat: (chat: ChatLine) => EpisodeRecord;
  /** replays an OpenEnv results.jsonl line that does not carry its episode (openenv-collect.ts) */
  getCatalog: (id: string) => Catalog;
  defaultCatalogId: string;
}

/** The lines of a JSONL file, parsed and checked, in order (blank lines skipped). */
export function* parseJsonl(text: string, makers: LineMakers): Generator<ParsedLine> {
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    if (!raw.trim()) continue;
    const line = i + 1;
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch (e) {
      yield { line, error: `not JSON: ${(e as Error).message}` };
      continue;
    }
    const o = obj as Record<string, unknown>;
    if (o && o.format === FORMAT_NAME) {
      const parsed = episodeLineSchema.safeParse(o);
      if (!parsed.success)
        yield {
          line,
          kind: 'ecomrlve',
          error: `not a valid ${FORMAT_NAME} v1 line: ${zodMessage(parsed.error.issues)}`,
        };
      else yield { line, kind: 'ecomrlve', make: () => makers.own(parsed.data) };
    } else if (o && Array.isArray(o.tool_trace) && typeof o.episode_id === 'string') {
      const parsed = collectRecordSchema.safeParse(o);
      if (!parsed.success)
        yield {
          line,
          kind: 'openenv',
          error: `not a valid OpenEnv collect record: ${zodMessage(parsed.error.issues)}`,
        };
      else {
        let episode: EpisodeLine | null = null;
        try {
          episode = fromCollectRecord(parsed.data, makers.getCatalog, makers.defaultCatalogId);
        } catch (e) {
          yield { line, kind: 'openenv', error: (e as Error).message };
        }
        if (episode) yield { line, kind: 'openenv', make: () => makers.own(episode) };
      }
    } else if (o && Array.isArray(o.messages)) {
      const parsed = chatLineSchema.safeParse(o);
      if (!parsed.success)
        yield { line, kind: 'openai', error: `not a valid chat transcript: ${zodMessage(parsed.error.issues)}` };
      else yield { line, kind: 'openai', make: () => makers.chat(parsed.data) };
    } else
      yield {
        line,
        error: `unknown line: expected {"format":"${FORMAT_NAME}",…}, an OpenEnv collect record {"episode_id","messages","tool_trace",…}, an OpenAI chat transcript {"messages":[…]}, or a reference trace file`,
      };
  }
}

// Importing episode files: the project's JSONL format, OpenAI chat transcripts (JSONL) and the
// reference implementation's trace files (one JSON object per file). Each episode is stored
// in its own transaction; the report has one entry per line (or file) saying what happened.
import type { Catalog } from '@/server/engine/catalog/types';
import type { Action, EnvId } from '@/server/engine/types';
import { axesFor } from '@/server/engine/difficulty';
import type { InspectorDb } from './db';
import { episodeLineSchema, FORMAT_NAME, type EpisodeLine } from './format';
import { chatLineSchema, chatToRecord } from './import-openai';
import { parseReferenceManifest, referenceToRecord, referenceTraceSchema, type ManifestRow } from './import-reference';
import { createInserter, type EpisodeRecord } from './insert';
import { catchUpSearchIndex } from './pg-search';
import { partsOf, pendingRescore, rescoreByReplay, noRescore } from './rescore';
import type { AxisValues } from '@/server/engine/difficulty';
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';

export interface ImportLineReport {
  file: string;
  /** 1-based line in a JSONL file; 1 for a whole-file JSON */
  line: number;
  ok: boolean;
  kind?: 'ecomrlve' | 'openai' | 'reference';
  id?: string;
  message: string;
  recordedReward?: number | null;
  rescoredReward?: number | null;
}

export interface ImportOptions {
  getCatalog: (id: string) => Catalog;
  defaultCatalogId: string;
  /** run label for imported episodes (default: the file name) */
  runLabel?: string | null;
  /**
   * Re-score own-format episodes by replay: true = now, false = never, 'auto' (default) = now
   * when the files hold at most REPLAY_NOW_LIMIT lines, else when each episode is first opened
   * (a replay costs about as much as playing the episode again).
   */
  rescore?: boolean | 'auto';
}

export const REPLAY_NOW_LIMIT = 500;

export interface ImportFile {
  name: string;
  text: string;
}

const zodMessage = (issues: Array<{ path: PropertyKey[]; message: string }>) =>
  issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`)
    .join('; ') + (issues.length > 3 ? ` (+${issues.length - 3} more)` : '');

function ownToRecord(line: EpisodeLine, opts: ImportOptions, fileName: string, replayNow: boolean): EpisodeRecord {
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

/**
 * One outer bulk transaction per call (one commit, one sync to disk, search index built in one
 * statement); each episode inside it is a savepoint, so a failing episode is rolled back alone
 * and nothing of it is stored.
 */
export async function importFiles(
  db: InspectorDb,
  files: ImportFile[],
  opts: ImportOptions,
): Promise<ImportLineReport[]> {
  const inserter = createInserter(db);
  const report = await inserter.bulk((tx) => importInside(tx, inserter, files, opts));
  await catchUpSearchIndex(db); // PostgreSQL: the imported events are searchable at once
  return report;
}

async function importInside(
  tx: InspectorDb,
  inserter: ReturnType<typeof createInserter>,
  files: ImportFile[],
  opts: ImportOptions,
): Promise<ImportLineReport[]> {
  const readme = files.find((f) => /readme\.md$/i.test(f.name));
  const manifest: Map<string, ManifestRow> = readme ? parseReferenceManifest(readme.text) : new Map();
  const report: ImportLineReport[] = [];
  const lineCount = files.reduce(
    (n, f) => n + (/\.jsonl$/i.test(f.name) ? f.text.split('\n').filter((l) => l.trim()).length : 1),
    0,
  );
  const replayNow = opts.rescore === true || (opts.rescore !== false && lineCount <= REPLAY_NOW_LIMIT);

  const store = async (file: string, line: number, kind: ImportLineReport['kind'], make: () => EpisodeRecord) => {
    try {
      const rec = make();
      if (rec.id && (await inserter.exists(tx, rec.id))) {
        report.push({
          file,
          line,
          ok: false,
          kind,
          id: rec.id,
          message: `episode ${rec.id} is already stored; skipped`,
        });
        return;
      }
      const id = await inserter.insert(tx, rec);
      const rs = rec.rescored as { reward: number | null; method: string; note: string } | null;
      report.push({
        file,
        line,
        ok: true,
        kind,
        id,
        recordedReward: rec.reward,
        rescoredReward: rs?.reward ?? null,
        message: `imported ${rec.envId} d=${rec.d} seed=${rec.seed}; ${!rs ? 'shown as recorded' : rs.method === 'pending' ? 're-scored when first opened' : rs.method !== 'none' ? `re-scored (${rs.method})` : `shown as recorded: ${rs.note}`}`,
      });
    } catch (e) {
      report.push({ file, line, ok: false, kind, message: (e as Error).message });
    }
  };

  for (const f of files) {
    if (f === readme) continue;
    const trimmed = f.text.trim();
    if (!trimmed) {
      report.push({ file: f.name, line: 1, ok: false, message: 'the file is empty' });
      continue;
    }
    // A whole-file JSON object (a reference trace is pretty-printed over many lines).
    if (trimmed.startsWith('{') && !trimmed.includes('\n{')) {
      let obj: unknown;
      try {
        obj = JSON.parse(trimmed);
      } catch {
        obj = undefined;
      }
      if (obj && typeof obj === 'object' && 'reward_breakdown' in obj && 'conversation' in obj) {
        const parsed = referenceTraceSchema.safeParse(obj);
        if (!parsed.success)
          report.push({
            file: f.name,
            line: 1,
            ok: false,
            kind: 'reference',
            message: `not a valid reference trace: ${zodMessage(parsed.error.issues)}`,
          });
        else
          await store(f.name, 1, 'reference', () =>
            referenceToRecord(parsed.data, f.name, manifest.get(f.name.split('/').pop()!)),
          );
        continue;
      }
    }
    const lines = f.text.split('\n');
    for (const [i, raw] of lines.entries()) {
      if (!raw.trim()) continue;
      let obj: unknown;
      try {
        obj = JSON.parse(raw);
      } catch (e) {
        report.push({ file: f.name, line: i + 1, ok: false, message: `not JSON: ${(e as Error).message}` });
        continue;
      }
      const o = obj as Record<string, unknown>;
      if (o && o.format === FORMAT_NAME) {
        const parsed = episodeLineSchema.safeParse(o);
        if (!parsed.success)
          report.push({
            file: f.name,
            line: i + 1,
            ok: false,
            kind: 'ecomrlve',
            message: `not a valid ${FORMAT_NAME} v1 line: ${zodMessage(parsed.error.issues)}`,
          });
        else await store(f.name, i + 1, 'ecomrlve', () => ownToRecord(parsed.data, opts, f.name, replayNow));
      } else if (o && Array.isArray(o.messages)) {
        const parsed = chatLineSchema.safeParse(o);
        if (!parsed.success)
          report.push({
            file: f.name,
            line: i + 1,
            ok: false,
            kind: 'openai',
            message: `not a valid chat transcript: ${zodMessage(parsed.error.issues)}`,
          });
        else
          await store(f.name, i + 1, 'openai', () =>
            chatToRecord(parsed.data, opts.getCatalog, opts.defaultCatalogId, opts.runLabel ?? f.name),
          );
      } else {
        report.push({
          file: f.name,
          line: i + 1,
          ok: false,
          message: `unknown line: expected {"format":"${FORMAT_NAME}",…}, an OpenAI chat transcript {"messages":[…]}, or a reference trace file`,
        });
      }
    }
  }
  return report;
}

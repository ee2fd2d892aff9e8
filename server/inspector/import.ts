// Importing episode files: the project's JSONL format, OpenEnv collect results, OpenAI chat
// transcripts (JSONL) and the reference implementation's trace files (one JSON object per file).
// Every kind becomes one EpisodeRecord (insert.ts) the same way; each episode is stored whole or
// not at all; the report has one entry per line (or file) saying what happened.
import type { z } from 'zod';
import type { Catalog } from '@/server/engine/catalog/types';
import type { RewardBreakdown } from '@/server/engine/types';
import { axesFor, type AxisValues } from '@/server/engine/difficulty';
import type { SqlDb } from '@/server/db/sql';
import { episodeExists } from '@/server/episodes/queries';
import { parse } from '@/server/episodes/inputs';
import { episodeLineSchema, FORMAT_NAME, type EpisodeLine } from './format';
import { chatLineSchema, chatToRecord } from './import-openai';
import { parseReferenceManifest, referenceToRecord, referenceTraceSchema, type ManifestRow } from './import-reference';
import { insertEpisode, type EpisodeRecord } from './insert';
import { collectRecordSchema, fromCollectRecord } from './openenv-collect';
import { catchUpSearchIndex } from './pg-search';
import { rescoreOnCatalog, unscored, type Rescore } from './rescore';

export interface ImportLineReport {
  file: string;
  /** 1-based line in a JSONL file; 1 for a whole-file JSON */
  line: number;
  ok: boolean;
  kind?: 'ecomrlve' | 'openenv' | 'openai' | 'reference';
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

/**
 * One outer transaction per call (one commit, one sync to disk); a failing episode leaves
 * nothing of it stored (its batch is a savepoint) and the others go in.
 */
export async function importFiles(db: SqlDb, files: ImportFile[], opts: ImportOptions): Promise<ImportLineReport[]> {
  const report = await db.transaction((tx) => importInside(tx, files, opts));
  await catchUpSearchIndex(db); // PostgreSQL: the imported events are searchable at once
  return report;
}

/**
 * Lines to import (non-blank lines of .jsonl files, 1 for any other file), counted only up to
 * `limit`: enough to decide whether to re-score now, without splitting 500 MB before the parsing starts.
 */
function linesUpTo(files: ImportFile[], limit: number): number {
  let n = 0;
  for (const { name, text } of files) {
    if (!/\.jsonl$/i.test(name)) n++;
    else
      for (let at = 0; at < text.length && n < limit;) {
        const nl = text.indexOf('\n', at);
        const end = nl < 0 ? text.length : nl;
        if (text.slice(at, end).trim()) n++;
        at = end + 1;
      }
    if (n >= limit) return limit;
  }
  return n;
}

/** The value checked against its format's schema, or the report's message thrown. */
const checked = <T>(schema: z.ZodType<T>, value: unknown, what: string) => parse(schema, value, `not a valid ${what}`);

/** One file's JSON values with their line: a whole-file reference trace, else one per non-blank line. */
function* valuesOf(text: string): Generator<{ line: number; value?: unknown; error?: string }> {
  const trimmed = text.trim();
  // A reference trace is one JSON object pretty-printed over many lines.
  if (trimmed.startsWith('{') && !trimmed.includes('\n{')) {
    try {
      const whole = JSON.parse(trimmed) as Record<string, unknown>;
      if (whole && 'reward_breakdown' in whole && 'conversation' in whole) {
        yield { line: 1, value: whole };
        return;
      }
    } catch {
      /* not one object: read as lines */
    }
  }
  for (const [i, raw] of text.split('\n').entries()) {
    if (!raw.trim()) continue;
    try {
      yield { line: i + 1, value: JSON.parse(raw) };
    } catch (e) {
      yield { line: i + 1, error: `not JSON: ${(e as Error).message}` };
    }
  }
}

/** The project's own line as a record, re-scored by replay now, later (pending) or not at all. */
function ownToRecord(line: EpisodeLine, { opts, file, replayNow }: ImportContext): EpisodeRecord {
  const breakdown = line.breakdown as RewardBreakdown | null;
  let rescored: Rescore;
  if (opts.rescore === false) rescored = unscored('re-scoring was turned off for this import');
  else if (line.actions.length === 0) rescored = unscored('no actions were recorded, so the engine cannot replay it');
  else if (!replayNow) rescored = unscored('re-scored by replay when first opened (large import)', 'pending');
  else {
    const { envId, d, seed, axisOverrides, weights, catalogId } = line; // the config's own fields only
    const config = { envId, d, seed, axisOverrides, ...(weights ? { weights } : {}), catalogId };
    rescored = rescoreOnCatalog(config, line.actions, opts.getCatalog, breakdown);
  }
  const axisOverrides = line.axisOverrides as Partial<AxisValues>;
  return {
    ...(line as unknown as EpisodeRecord),
    axes: (line.axes as unknown as AxisValues | undefined) ?? axesFor(line.d, axisOverrides),
    origin: line.origin ?? 'engine',
    runLabel: line.runLabel ?? opts.runLabel ?? null,
    recorded: line.recorded ?? null,
    rescored: { ...rescored, breakdown: null, file },
  };
}

interface ImportContext {
  opts: ImportOptions;
  file: string;
  manifest: Map<string, ManifestRow>;
  replayNow: boolean;
}

/** Each kind of episode: how a JSON value is recognised, and its adapter to a record (throwing the report's message). */
const FORMATS: Array<{
  kind: NonNullable<ImportLineReport['kind']>;
  is: (o: Record<string, unknown>) => boolean;
  read: (o: unknown, c: ImportContext) => EpisodeRecord;
}> = [
  {
    kind: 'ecomrlve',
    is: (o) => o.format === FORMAT_NAME,
    read: (o, c) => ownToRecord(checked(episodeLineSchema, o, `${FORMAT_NAME} v1 line`), c),
  },
  {
    kind: 'openenv',
    is: (o) => Array.isArray(o.tool_trace) && typeof o.episode_id === 'string',
    read: (o, c) => {
      const record = checked(collectRecordSchema, o, 'OpenEnv collect record');
      return ownToRecord(fromCollectRecord(record, c.opts.getCatalog, c.opts.defaultCatalogId), c);
    },
  },
  {
    kind: 'openai',
    is: (o) => Array.isArray(o.messages),
    read: (o, { opts, file }) =>
      chatToRecord(
        checked(chatLineSchema, o, 'chat transcript'),
        opts.getCatalog,
        opts.defaultCatalogId,
        opts.runLabel ?? file,
      ),
  },
  {
    kind: 'reference',
    is: (o) => 'reward_breakdown' in o && 'conversation' in o,
    read: (o, { file, manifest }) =>
      referenceToRecord(
        checked(referenceTraceSchema, o, 'reference trace'),
        file,
        manifest.get(file.split('/').pop()!),
      ),
  },
];

const UNKNOWN_LINE = `unknown line: expected {"format":"${FORMAT_NAME}",…}, an OpenEnv collect record {"episode_id","messages","tool_trace",…}, an OpenAI chat transcript {"messages":[…]}, or a reference trace file`;

/** What the report says of a stored episode. */
function storedMessage(rec: EpisodeRecord): string {
  const rs = rec.rescored as { method: string; note: string } | null;
  const how = !rs
    ? 'shown as recorded'
    : rs.method === 'pending'
      ? 're-scored when first opened'
      : rs.method !== 'none'
        ? `re-scored (${rs.method})`
        : `shown as recorded: ${rs.note}`;
  return `imported ${rec.envId} d=${rec.d} seed=${rec.seed}; ${how}`;
}

async function importInside(tx: SqlDb, files: ImportFile[], opts: ImportOptions): Promise<ImportLineReport[]> {
  const readme = files.find((f) => /readme\.md$/i.test(f.name));
  const manifest = readme ? parseReferenceManifest(readme.text) : new Map<string, ManifestRow>();
  const replayNow =
    opts.rescore === true || (opts.rescore !== false && linesUpTo(files, REPLAY_NOW_LIMIT + 1) <= REPLAY_NOW_LIMIT);
  const report: ImportLineReport[] = [];
  for (const f of files) {
    if (f === readme) continue;
    if (!f.text.trim()) {
      report.push({ file: f.name, line: 1, ok: false, message: 'the file is empty' });
      continue;
    }
    for (const { line, value, error } of valuesOf(f.text)) {
      const at = { file: f.name, line };
      if (error) {
        report.push({ ...at, ok: false, message: error });
        continue;
      }
      // a line that is not an object (`5`, `"text"`) is no kind of episode
      const format =
        typeof value === 'object' && value ? FORMATS.find((k) => k.is(value as Record<string, unknown>)) : null;
      const kind = format?.kind;
      try {
        if (!format) throw new Error(UNKNOWN_LINE);
        const rec = format.read(value, { opts, file: f.name, manifest, replayNow });
        if (rec.id && (await episodeExists(tx, rec.id))) {
          report.push({ ...at, ok: false, kind, id: rec.id, message: `episode ${rec.id} is already stored; skipped` });
          continue;
        }
        const id = await insertEpisode(tx, rec);
        const rescoredReward = (rec.rescored as Rescore | null)?.reward ?? null;
        report.push({
          ...at,
          ok: true,
          kind,
          id,
          recordedReward: rec.reward,
          rescoredReward,
          message: storedMessage(rec),
        });
      } catch (e) {
        report.push({ ...at, ok: false, kind, message: (e as Error).message });
      }
    }
  }
  return report;
}

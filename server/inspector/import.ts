// Importing episode files: the project's JSONL format, OpenAI chat transcripts (JSONL) and the
// reference implementation's trace files (one JSON object per file). Each episode is stored
// whole or not at all; the report has one entry per line (or file) saying what happened.
import type { Catalog } from '@/server/engine/catalog/types';
import type { SqlDb } from '@/server/db/sql';
import { chatToRecord } from './import-openai';
import { ownToRecord, parseJsonl, readyEpisode, zodMessage, type ParsedLine } from './import-parse';
import { parseReferenceManifest, referenceToRecord, referenceTraceSchema, type ManifestRow } from './import-reference';
import { createInserter } from './insert';
import { catchUpSearchIndex } from './pg-search';

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
 * One outer bulk transaction per call (one commit, one sync to disk, search index built in one
 * statement); a failing episode leaves nothing of it stored (insert.ts: its rows deleted again on
 * SQLite, a savepoint on PostgreSQL) and the others go in.
 */
export async function importFiles(db: SqlDb, files: ImportFile[], opts: ImportOptions): Promise<ImportLineReport[]> {
  const inserter = createInserter(db);
  const report = await inserter.bulk((tx) => importInside(tx, inserter, files, opts));
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

async function importInside(
  tx: SqlDb,
  inserter: ReturnType<typeof createInserter>,
  files: ImportFile[],
  opts: ImportOptions,
): Promise<ImportLineReport[]> {
  const readme = files.find((f) => /readme\.md$/i.test(f.name));
  const manifest: Map<string, ManifestRow> = readme ? parseReferenceManifest(readme.text) : new Map();
  const report: ImportLineReport[] = [];
  const replayNow =
    opts.rescore === true || (opts.rescore !== false && linesUpTo(files, REPLAY_NOW_LIMIT + 1) <= REPLAY_NOW_LIMIT);

  const store = async (file: string, p: ParsedLine) => {
    const { line, kind } = p;
    if ('error' in p) {
      report.push({ file, line, ok: false, kind, message: p.error });
      return;
    }
    try {
      const ready = readyEpisode(p.make());
      const { id } = ready.prepared.row;
      const { recordedReward, rescoredReward, message } = ready;
      const o = await inserter.writeOne(tx, ready.prepared);
      if (o === 'exists')
        report.push({ file, line, ok: false, kind, id, message: `episode ${id} is already stored; skipped` });
      else if (o !== 'stored') report.push({ file, line, ok: false, kind, message: o.error });
      else report.push({ file, line, ok: true, kind, id, recordedReward, rescoredReward, message });
    } catch (e) {
      report.push({ file, line, ok: false, kind, message: (e as Error).message });
    }
  };

  const isWholeJson = (text: string) => text.startsWith('{') && !text.includes('\n{');
  for (const f of files) {
    if (f === readme) continue;
    const trimmed = f.text.trim();
    if (!trimmed) {
      report.push({ file: f.name, line: 1, ok: false, message: 'the file is empty' });
      continue;
    }
    // A whole-file JSON object (a reference trace is pretty-printed over many lines).
    if (isWholeJson(trimmed)) {
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
          await store(f.name, {
            line: 1,
            kind: 'reference',
            make: () => referenceToRecord(parsed.data, f.name, manifest.get(f.name.split('/').pop()!)),
          });
        continue;
      }
    }
    const lines = parseJsonl(f.text, {
      own: (ep) => ownToRecord(ep, opts, f.name, replayNow),
      chat: (chat) => chatToRecord(chat, opts.getCatalog, opts.defaultCatalogId, opts.runLabel ?? f.name),
      getCatalog: opts.getCatalog,
      defaultCatalogId: opts.defaultCatalogId,
    });
    for (const p of lines) await store(f.name, p);
  }
  return report;
}

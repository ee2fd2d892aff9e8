// Full-text search over messages and tool calls (FTS5 table EpisodeText, rowid = event id).

/**
 * The user's words → an FTS5 query: every word must occur (AND); a trailing `*` keeps prefix
 * search; quotes keep a phrase. Everything else is quoted, so no input is an FTS5 syntax error.
 */
export function ftsQuery(input: string): string | null {
  const parts: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (const m of input.matchAll(re)) {
    if (m[1] !== undefined) {
      const words = m[1].match(/[\p{L}\p{N}_]+/gu);
      if (words) parts.push(`"${words.join(' ')}"`);
      continue;
    }
    const prefix = m[2].endsWith('*');
    const words = m[2].match(/[\p{L}\p{N}_]+/gu);
    if (!words) continue;
    // "syn_000152-v" tokenises to several words: keep them together as a phrase
    parts.push(`"${words.join(' ')}"${prefix ? '*' : ''}`);
  }
  return parts.length ? parts.join(' AND ') : null;
}

/** SQL fragment: the ids of episodes with an event matching the query (bind: the FTS query). */
export const MATCHING_EPISODES_SQL =
  'SELECT o."episodeId" FROM "EpisodeText" t JOIN "EpisodeTextOwner" o ON o."rowid" = t.rowid WHERE "EpisodeText" MATCH ?';

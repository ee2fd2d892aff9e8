// Product ids and titles found in tool results, answers and the world (plain JSON walks).
import type { EpisodeEvent } from '@/server/engine/types';

/** Every {product_id, title} (and exchanges' {new_product_id, new_title}) found in a JSON value. */
export function collectTitlesInto(titles: Map<string, string>, value: unknown): Map<string, string> {
  const visit = (v: unknown, depth: number): void => {
    if (depth > 6 || typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.product_id === 'string' && typeof o.title === 'string' && !titles.has(o.product_id))
      titles.set(o.product_id, o.title);
    if (typeof o.new_product_id === 'string' && typeof o.new_title === 'string' && !titles.has(o.new_product_id))
      titles.set(o.new_product_id, o.new_title);
    for (const x of Object.values(o)) if (typeof x === 'object') visit(x, depth + 1);
  };
  visit(value, 0);
  return titles;
}

/** Product ids named in a JSON value: product_id / new_product_id fields and *_product_ids lists. */
export function collectProductIds(ids: Set<string>, value: unknown): Set<string> {
  const visit = (v: unknown, depth: number): void => {
    if (depth > 6 || typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if ((k === 'product_id' || k === 'new_product_id') && typeof x === 'string') {
        ids.add(x);
      } else if (/product_ids$/.test(k) && Array.isArray(x)) {
        for (const id of x) if (typeof id === 'string') ids.add(id);
      } else if (typeof x === 'object') {
        visit(x, depth + 1);
      }
    }
  };
  visit(value, 0);
  return ids;
}

/** Titles the tool results of the episode showed. */
export function collectProductTitles(events: readonly EpisodeEvent[]): Map<string, string> {
  const titles = new Map<string, string>();
  for (const e of events) if (e.kind === 'tool_call' && e.error === null) collectTitlesInto(titles, e.result);
  return titles;
}

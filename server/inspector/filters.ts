// The episode list's filter, sort and page, and their URL form. Pure (zod only) so the page,
// the tRPC router, the export route and the tests share one definition.
import { z } from 'zod';
import { ENV_IDS } from '@/server/engine/types';

export const SORT_COLUMNS = [
  'createdAt',
  'envId',
  'd',
  'seed',
  'reward',
  'isCorrect',
  'terminationReason',
  'turn',
  'toolCalls',
  'player',
] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export const TERMINATIONS = [
  'answered',
  'turn_budget',
  'user_quit',
  'format_invalid',
  'tool_invalid',
  'safety_violation',
  'aborted',
] as const;

const num = z.coerce.number().refine(Number.isFinite, 'must be a number');
const int = z.coerce.number().int();
const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(item).max(50));

export const episodeFilterSchema = z.strictObject({
  env: csv(z.enum(ENV_IDS)).optional(),
  dMin: int.min(0).max(100).optional(),
  dMax: int.min(0).max(100).optional(),
  rMin: num.min(-1).max(1).optional(),
  rMax: num.min(-1).max(1).optional(),
  pass: z.enum(['pass', 'fail', 'active']).optional(),
  term: csv(z.enum(TERMINATIONS)).optional(),
  player: z.string().max(80).optional(),
  /** 'human': only episodes whose every turn a person took (the derived player is "human") */
  turns: z.enum(['human']).optional(),
  /** a run key (server/inspector/run-keys.ts): batch:<id>, curriculum:<id>, trainer:<name>, import:<label> */
  run: z.string().max(200).optional(),
  catalog: z.string().max(200).optional(),
  origin: z.string().max(40).optional(),
  revealed: z.enum(['yes', 'no']).optional(),
  /** ISO dates (YYYY-MM-DD), inclusive, UTC */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  q: z.string().max(200).optional(),
  /** who an episode's failure is attributed to (attribution.ts; server/episodes/queries/filter.ts resolves it) */
  failedBy: z.enum(['infrastructure', 'environment', 'agent', 'customer']).optional(),
});
export type EpisodeFilter = z.infer<typeof episodeFilterSchema>;

export const listInputSchema = z.strictObject({
  filter: episodeFilterSchema.default({}),
  sort: z.enum(SORT_COLUMNS).default('createdAt'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  page: z.int().min(1).max(100_000).default(1),
  size: z.int().min(1).max(200).default(50),
});
export type ListInput = z.infer<typeof listInputSchema>;

const FILTER_KEYS = Object.keys(episodeFilterSchema.shape) as Array<keyof EpisodeFilter>;

/** URL search params → list input. Unknown or invalid values are dropped (a bad link still opens). */
export function listInputFromParams(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): ListInput {
  const get = (k: string): string | undefined => {
    if (params instanceof URLSearchParams) return params.get(k) ?? undefined;
    const v = params[k];
    return Array.isArray(v) ? v[0] : v;
  };
  const filter: Record<string, unknown> = {};
  for (const k of FILTER_KEYS) {
    const raw = get(k);
    if (raw === undefined || raw === '') continue;
    const one = episodeFilterSchema.shape[k].safeParse(raw);
    if (one.success && one.data !== undefined) filter[k] = one.data;
  }
  const pick = <T>(schema: z.ZodType<T>, raw: string | undefined, fallback: T): T => {
    const r = schema.safeParse(raw);
    return r.success ? r.data : fallback;
  };
  return {
    filter: filter as EpisodeFilter,
    sort: pick(z.enum(SORT_COLUMNS), get('sort'), 'createdAt'),
    dir: pick(z.enum(['asc', 'desc']), get('dir'), 'desc'),
    page: pick(z.coerce.number().int().min(1).max(100_000), get('page'), 1),
    size: pick(z.coerce.number().int().min(1).max(200), get('size'), 50),
  };
}

/** List input → URL search string (defaults left out, so links stay short). */
export function listInputToParams(input: Partial<ListInput>): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of FILTER_KEYS) {
    const v = input.filter?.[k];
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  if (input.sort && input.sort !== 'createdAt') p.set('sort', input.sort);
  if (input.dir && input.dir !== 'desc') p.set('dir', input.dir);
  if (input.page && input.page !== 1) p.set('page', String(input.page));
  if (input.size && input.size !== 50) p.set('size', String(input.size));
  return p;
}

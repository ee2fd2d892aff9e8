// `npm run rescore -- <episodeId> | --all [--include-current]`: the CLI's logic, testable
// without a process. It prints old and new reward side by side with the components that differ.
import type { PrismaClient } from '@/server/generated/prisma/client';
import { REWARD_REVISION } from '@/server/engine/reward';
import type { RescoreService, RescoreView } from '@/server/episodes/rescore';

export const RESCORE_USAGE = `usage: npm run rescore -- <episodeId> [<episodeId> …]
       npm run rescore -- --all [--include-current]
  Replays each finished episode's stored actions under the current engine (reward revision N)
  and stores the re-score beside the original reward (which is kept).
  --all              every finished episode scored under an older revision
  --include-current  with --all: also episodes already scored under the current revision
  --help             this text`;

export type RescoreArgs = { kind: 'ids'; ids: string[] } | { kind: 'all'; includeCurrent: boolean } | { kind: 'help' };

export class RescoreUsageError extends Error {}

export function parseRescoreArgs(argv: readonly string[]): RescoreArgs {
  const flags = argv.filter((a) => a.startsWith('--'));
  const ids = argv.filter((a) => !a.startsWith('--'));
  for (const f of flags)
    if (!['--all', '--include-current', '--help'].includes(f))
      throw new RescoreUsageError(`unknown flag ${f}; flags are --all, --include-current, --help`);
  if (flags.includes('--help')) return { kind: 'help' };
  if (flags.includes('--all')) {
    if (ids.length > 0)
      throw new RescoreUsageError(`give either --all or episode ids, not both (got ${ids.join(', ')})`);
    return { kind: 'all', includeCurrent: flags.includes('--include-current') };
  }
  if (flags.includes('--include-current')) throw new RescoreUsageError('--include-current only goes with --all');
  if (ids.length === 0) throw new RescoreUsageError('give an episode id or --all');
  return { kind: 'ids', ids };
}

/** Rewards and reward parts with 3 decimals, turn counts as integers, pass as yes/no. */
const fmt = (v: unknown, name = '') =>
  v === null || v === undefined
    ? '–'
    : typeof v === 'boolean'
      ? v
        ? 'yes'
        : 'no'
      : typeof v === 'number'
        ? name.startsWith('T_')
          ? String(v)
          : v.toFixed(3)
        : String(v);

/** One episode's result: a header line, then the components that differ (all of them when asked). */
export function formatRescore(v: RescoreView, all = false): string {
  const head = `${v.episodeId}: revision ${v.fromRevision} → ${v.toRevision}  reward ${fmt(v.old.reward)} → ${fmt(v.reward)}  pass ${fmt(v.old.isCorrect)} → ${fmt(v.isCorrect)}  [${v.replay}] ${v.note}`;
  const rows = v.components.filter((c) => all || c.changed);
  if (rows.length === 0) return `${head}\n  no component changed`;
  const w = Math.max(...rows.map((c) => c.name.length));
  return [
    head,
    ...rows.map(
      (c) =>
        `  ${c.name.padEnd(w)}  ${fmt(c.old, c.name).padStart(8)}  →  ${fmt(c.new, c.name).padStart(8)}${c.changed ? '  *' : ''}`,
    ),
  ].join('\n');
}

export interface RescoreAllResult {
  rescored: RescoreView[];
  /** episodes that could not be re-scored (missing catalog, config outside today's ranges …) */
  failed: Array<{ episodeId: string; error: string }>;
}

/**
 * Every finished episode scored under an older revision (or every finished one with
 * `includeCurrent`), oldest first. One episode's failure is reported and the rest go on.
 */
export async function rescoreAll(
  service: RescoreService,
  prisma: PrismaClient,
  options: {
    includeCurrent?: boolean;
    onProgress?: (view: RescoreView | { episodeId: string; error: string }) => void;
  } = {},
): Promise<RescoreAllResult> {
  const rows = await prisma.episode.findMany({
    where: { status: 'done', ...(options.includeCurrent ? {} : { rewardRevision: { lt: REWARD_REVISION } }) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  const result: RescoreAllResult = { rescored: [], failed: [] };
  for (const { id } of rows) {
    try {
      const view = await service.rescoreEpisode(id);
      result.rescored.push(view);
      options.onProgress?.(view);
    } catch (e) {
      const failure = { episodeId: id, error: (e as Error).message };
      result.failed.push(failure);
      options.onProgress?.(failure);
    }
  }
  return result;
}

/** Runs the CLI; returns the exit code (0 ok, 1 some episode failed, 2 usage). */
export async function runRescoreCli(
  argv: readonly string[],
  service: RescoreService,
  prisma: PrismaClient,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let args: RescoreArgs;
  try {
    args = parseRescoreArgs(argv);
  } catch (e) {
    if (!(e instanceof RescoreUsageError)) throw e;
    err(`rescore: ${e.message}\n${RESCORE_USAGE}`);
    return 2;
  }
  if (args.kind === 'help') {
    out(RESCORE_USAGE.replace('revision N', `revision ${service.currentRevision}`));
    return 0;
  }
  if (args.kind === 'ids') {
    let failed = 0;
    for (const id of args.ids) {
      try {
        out(formatRescore(await service.rescoreEpisode(id), args.ids.length === 1));
      } catch (e) {
        failed++;
        err(`rescore: ${id}: ${(e as Error).message}`);
      }
    }
    return failed > 0 ? 1 : 0;
  }
  const result = await rescoreAll(service, prisma, {
    includeCurrent: args.includeCurrent,
    onProgress: (r) => ('error' in r ? err(`rescore: ${r.episodeId}: ${r.error}`) : out(formatRescore(r))),
  });
  const changedPass = result.rescored.filter((r) => r.isCorrect !== r.old.isCorrect).length;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  const scored = result.rescored.filter((r) => r.reward !== null && r.old.reward !== null);
  out(
    `rescore: ${result.rescored.length} episode(s) re-scored under revision ${service.currentRevision}, ${result.failed.length} failed; ` +
      `pass changed in ${changedPass}; mean reward ${fmt(mean(scored.map((r) => r.old.reward!)))} → ${fmt(mean(scored.map((r) => r.reward!)))}` +
      (result.rescored.length - scored.length > 0
        ? ` (${result.rescored.length - scored.length} without a new reward)`
        : ''),
  );
  return result.failed.length > 0 ? 1 : 0;
}

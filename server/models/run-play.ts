// A batch run's episodes played with the pure engine, in whichever thread runs it (the app: a
// worker thread, run-player.ts). Each turn is chosen exactly as at the table (chooseTableAction:
// the agent seat's events only), so a run stores what the episode service would have stored turn
// by turn; the finished episodes come back in batches for the writer. No database, nothing of Next.
import { createEpisode, type Action, type Catalog, type EpisodeConfig, type EpisodeEvent } from '@/server/engine';
import type { AxisValues } from '@/server/engine/difficulty';
import type { EnvId, RewardBreakdown, TerminationReason } from '@/server/engine/types';
import { episodeBudgets } from '@/server/episodes/budgets';
import { actionRecord } from '@/server/episodes/inputs';
import { agentEvents } from '@/server/episodes/seat';
import { storedGoalOf } from '@/server/episodes/stored-goal';
import type { HiddenGoal } from '@/server/episodes/types';
import type { HeuristicDriver, HeuristicDrivers } from './agents';
import type { RunCellStats } from './runs';
import { chooseTableAction, type TableOptions, type TablePlayer, type TurnInfra } from './table';

export interface RunCell {
  envId: EnvId;
  d: number;
  seed: number;
  /** Which of the seed's G rollouts (a group's member): seeds the player's sampling. Absent: G = 1. */
  rollout?: number;
}

export const expandCells = (envs: EnvId[], ds: number[], seeds: number[]): RunCell[] =>
  envs.flatMap((envId) => ds.flatMap((d) => seeds.map((seed) => ({ envId, d, seed }))));

/** One played episode of a run, as plain data (it crosses from the worker to the writer). */
export interface PlayedRunEpisode {
  cell: RunCell;
  axes: AxisValues;
  turn: number;
  done: boolean;
  termination: TerminationReason | null;
  breakdown: RewardBreakdown | null;
  hiddenGoal: HiddenGoal;
  journeyEnvs: EnvId[] | null;
  events: EpisodeEvent[];
  /** one per step() call: the stored action, the event count after it, a model's turn record */
  actions: Array<{ format: 'text' | 'json'; raw: string; eventEnd: number; modelRecord: string | null }>;
  /** the model turn that failed in the infrastructure, or the error that stopped the episode */
  infra: TurnInfra | null;
}

export interface RunJob {
  cells: RunCell[];
  player: TablePlayer;
  /** The run's sampling temperature (absent: the connection's own; a built-in agent's is 0). */
  temperature?: number;
  catalogId: string;
  concurrency: number;
  /** per-episode caps of the episode service (MAX_EPISODE_EVENTS, MAX_EPISODE_BYTES) */
  maxEvents: number;
  maxBytes: number;
  /** a batch goes to the writer once it holds this many episodes … */
  batchSize: number;
  /** … or this long after the previous one (a slow model's run still shows progress) */
  flushMs: number;
}

const eventBytes = (events: readonly EpisodeEvent[]) => events.reduce((n, e) => n + JSON.stringify(e).length, 0);

/**
 * Plays one cell until the episode ends, a model turn fails, a cap is reached or the signal aborts
 * (then the turn in hand ends as infrastructure: cancelled). `options`: test and CLI knobs of a model turn.
 */
export async function playRunCell(
  cell: RunCell,
  job: Pick<RunJob, 'player' | 'temperature' | 'maxEvents' | 'maxBytes'>,
  catalog: Catalog,
  signal: AbortSignal,
  options: Pick<TableOptions, 'backoffMs' | 'env' | 'onPartial'> = {},
): Promise<PlayedRunEpisode> {
  const config: EpisodeConfig = { envId: cell.envId, d: cell.d, seed: cell.seed };
  const ep = createEpisode(config, catalog);
  ep.reset();
  const stored: PlayedRunEpisode['actions'] = [];
  // what replay reads back: a JSON action parsed from its stored text
  const taken: Array<Action | string> = [];
  let bytes = eventBytes(ep.events);
  let infra: TurnInfra | null = null;
  const sampled = job.temperature !== undefined || cell.rollout !== undefined;
  const player = sampled
    ? { ...job.player, sampling: { temperature: job.temperature, seed: cell.rollout ?? 0 } }
    : job.player;
  // the heuristic continues from its last turn instead of replaying every observation (linear, not quadratic)
  let held: { driver: HeuristicDriver; read: number } | undefined;
  const drivers: HeuristicDrivers = {
    take: (read) => (held?.read === read.length ? held.driver : undefined),
    put: (read, driver) => void (held = { driver, read: read.length }),
  };
  try {
    while (!ep.done) {
      if (ep.events.length >= job.maxEvents || bytes >= job.maxBytes) {
        const caps = `caps ${job.maxEvents} events, ${job.maxBytes} bytes`;
        infra = { kind: 'limit', message: `the episode reached its size cap (${caps})`, turn: ep.turn + 1 };
        break;
      }
      const seat = {
        envId: cell.envId,
        events: agentEvents(ep.events, false),
        budgets: episodeBudgets(cell.envId, storedGoalOf(ep).data, ep.axes),
      };
      const choice = await chooseTableAction(player, seat, taken, config, () => catalog, {
        ...options,
        signal,
        episode: ep,
        drivers,
      });
      if (!choice.ok) {
        infra = choice.infra;
        break;
      }
      const { stepArg, record } = actionRecord(choice.action);
      const result = ep.step(stepArg);
      bytes += record.raw.length + eventBytes(result.events);
      taken.push(record.format === 'json' ? (JSON.parse(record.raw) as Action) : record.raw);
      stored.push({ ...record, eventEnd: ep.events.length, modelRecord: choice.modelRecord ?? null });
      if (signal.aborted) break;
    }
  } catch (e) {
    infra = { kind: 'internal', message: (e as Error).message, turn: ep.turn + 1 };
  }
  return {
    cell,
    axes: ep.axes,
    turn: ep.turn,
    done: ep.done,
    termination: ep.termination,
    breakdown: ep.breakdown,
    hiddenGoal: storedGoalOf(ep),
    journeyEnvs: ep.config.journeyEnvs ? [...ep.config.journeyEnvs] : null,
    events: [...ep.events],
    actions: stored,
    infra,
  };
}

/**
 * Plays the job's cells, `concurrency` at a time (a model's requests overlap; built-in agents
 * simply take turns), and hands the finished episodes to `onBatch` in batches, waiting for each.
 * Once `signal` aborts, no new episode starts and the ones in hand stop after their current turn.
 */
export async function playRunCells(
  job: RunJob,
  catalog: Catalog,
  signal: AbortSignal,
  onBatch: (episodes: PlayedRunEpisode[]) => Promise<void>,
  afterEpisode?: () => Promise<void>,
): Promise<void> {
  let next = 0;
  let pending: PlayedRunEpisode[] = [];
  let lastFlush = Date.now();
  let writing = Promise.resolve();
  const flush = () => {
    const batch = pending;
    pending = [];
    lastFlush = Date.now();
    writing = writing.then(() => onBatch(batch));
    return writing;
  };
  const lane = async () => {
    while (next < job.cells.length && !signal.aborted) {
      const played = await playRunCell(job.cells[next++], job, catalog, signal);
      pending.push(played); // after the await: a flush meanwhile replaced `pending`
      if (pending.length >= job.batchSize || Date.now() - lastFlush >= job.flushMs) await flush();
      await afterEpisode?.();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, job.concurrency) }, lane));
  if (pending.length > 0) await flush();
  await writing;
}

/** One played episode as the statistics read it: scored means finished with no infrastructure failure. */
interface CellOutcome {
  envId: string;
  d: number;
  infra: boolean;
  /** null unless scored */
  reward: number | null;
  pass: boolean;
}

/** Pass rate and mean reward per env × d over scored episodes; infrastructure failures apart. */
export function cellStats(outcomes: CellOutcome[]): RunCellStats[] {
  const cells = new Map<string, RunCellStats & { sum: number; passed: number }>();
  for (const o of outcomes) {
    const key = `${o.envId}|${o.d}`;
    const c = cells.get(key) ?? {
      envId: o.envId,
      d: o.d,
      episodes: 0,
      scored: 0,
      passRate: null,
      meanReward: null,
      infraFailures: 0,
      sum: 0,
      passed: 0,
    };
    cells.set(key, c);
    c.episodes++;
    if (o.infra) c.infraFailures++;
    else if (o.reward !== null) {
      c.scored++;
      c.sum += o.reward;
      if (o.pass) c.passed++;
    }
  }
  return [...cells.values()]
    .map(({ sum, passed, ...c }) => ({
      ...c,
      passRate: c.scored ? passed / c.scored : null,
      meanReward: c.scored ? sum / c.scored : null,
    }))
    .sort((a, b) => a.envId.localeCompare(b.envId) || a.d - b.d);
}

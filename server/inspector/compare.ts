// Comparing two episodes turn by turn, and two runs or agents over the same seeds.
import type { EpisodeEvent, RewardBreakdown } from '@/server/engine/types';
import type { SqlDb } from '@/server/db/sql';
import { flag } from '@/server/db/dialect';
import { pairedTasks } from '@/server/episodes/queries';
import { runCondition } from './run-keys';
import { diffParts, partsOf, type Rescore } from './rescore';

export interface TurnSide {
  customer: string | null;
  agent: string | null;
  calls: Array<{ name: string; args?: unknown; result?: unknown; error: string | null }>;
  answer?: unknown;
}

export interface AlignedTurn {
  turn: number;
  a: TurnSide | null;
  b: TurnSide | null;
  /** the agents did the same thing (same message, calls and answer) and saw the same reply */
  same: boolean;
}

function sideAt(events: EpisodeEvent[], turn: number): TurnSide | null {
  const here = events.filter((e) => e.turn === turn);
  if (here.length === 0) return null;
  const customer = [...here].reverse().find((e) => e.kind === 'customer_message');
  const agent = here.find((e) => e.kind === 'agent_message');
  const answer = here.find((e) => e.kind === 'answer');
  return {
    customer: customer?.kind === 'customer_message' ? customer.text : null,
    agent: agent?.kind === 'agent_message' ? agent.text : null,
    calls: here.flatMap((e) =>
      e.kind === 'tool_call' ? [{ name: e.name, args: e.args, result: e.result, error: e.error }] : [],
    ),
    answer: answer?.kind === 'answer' ? answer.answer : null,
  };
}

const actionKey = (s: TurnSide | null) =>
  s ? JSON.stringify([s.agent, s.calls.map((c) => [c.name, c.args]), s.answer, s.customer]) : null;

export function alignTurns(
  a: EpisodeEvent[],
  b: EpisodeEvent[],
): { turns: AlignedTurn[]; firstDivergence: number | null } {
  const last = Math.max(...a.map((e) => e.turn), ...b.map((e) => e.turn), 0);
  const turns: AlignedTurn[] = [];
  let firstDivergence: number | null = null;
  for (let t = 0; t <= last; t++) {
    const sa = sideAt(a, t);
    const sb = sideAt(b, t);
    const same = actionKey(sa) === actionKey(sb);
    if (!same && firstDivergence === null) firstDivergence = t;
    turns.push({ turn: t, a: sa, b: sb, same });
  }
  return { turns, firstDivergence };
}

export function breakdownDiff(a: RewardBreakdown | null, b: RewardBreakdown | null): Rescore['differs'] {
  return diffParts(a ? partsOf(a) : null, b ? partsOf(b) : null);
}

export interface RunSide {
  by: 'player' | 'run';
  value: string;
}

export type RunCompare = Awaited<ReturnType<typeof compareRuns>>;

/** Pairs the newest finished episode of each side per (env, d, seed) and lists what flipped. */
export async function compareRuns(db: SqlDb, A: RunSide, B: RunSide, limit = 500) {
  const side = (s: RunSide) => (s.by === 'player' ? { sql: 'e."player" = ?', args: [s.value] } : runCondition(s.value));
  const newCell = (envId: string, d: number) => ({
    envId,
    d,
    pairs: 0,
    bothPass: 0,
    bothFail: 0,
    lost: 0,
    gained: 0,
    sumA: 0,
    sumB: 0,
  });
  const cells = new Map<string, ReturnType<typeof newCell>>();
  const flipped = [];
  for (const raw of await pairedTasks(db, side(A), side(B))) {
    const r = { ...raw, aPass: flag(raw.aPass) === true, bPass: flag(raw.bPass) === true };
    const key = `${r.envId}|${r.d}`;
    const c = cells.get(key) ?? newCell(r.envId, r.d);
    cells.set(key, c);
    c.pairs++;
    c.sumA += r.aReward ?? 0;
    c.sumB += r.bReward ?? 0;
    if (r.aPass === r.bPass) {
      if (r.aPass) c.bothPass++;
      else c.bothFail++;
      continue;
    }
    // lost: passed in A, failed in B; gained: the other way
    if (r.aPass) c.lost++;
    else c.gained++;
    if (flipped.length < limit) {
      const { envId, d, seed, aId: a, bId: b, aPass, bPass, aReward, bReward } = r;
      flipped.push({ envId, d, seed, a, b, aPass, bPass, aReward, bReward });
    }
  }
  return {
    cells: [...cells.values()].map(({ sumA, sumB, ...c }) => ({
      ...c,
      meanRewardA: sumA / c.pairs,
      meanRewardB: sumB / c.pairs,
    })),
    flipped,
  };
}

// The composite reward (SPEC §8, revision 3), with evidence linking each part to turns.
//
// Revision 2: r_eff is normalised by a fixed T_ref = 4·n_sub (n_sub = 1 in atomic envs, the
// number of sub-tasks in JOURNEY) instead of T_max(d); a `clarify` reply makes the turn
// customer-caused only when the agent made no successful tool call in it; IsCorrect also
// needs r_hall = 0.
// Revision 3: no efficiency bonus without progress (r_eff enters as min(r_eff, 0) when
// r_task ≤ 0), and an answer naming any never-retrieved id has r_task = min(r_task, 0)
// (capInvention: the episode applies it to the verifier's result, JOURNEY per sub-answer).
// POLICY's grounding rule lives in its verifier (envs/policy.ts).

import { num, verdict } from './evidence';
import type { EvidenceItem, RewardBreakdown, RewardWeights, TaskResult, UserAct } from './types';

/** An answer passes (is_correct) when its r_task reaches this (SPEC §5); the envs' verifiers use it. */
export const PASS_THRESHOLD = 0.95;
/** The reward rules episodes are scored under; stored with every breakdown. */
export const REWARD_REVISION = 3;
/** T_ref per sub-task: T_max at d = 0. */
export const T_REF_PER_SUBTASK = 4;

export interface RewardInput {
  hardFail: RewardBreakdown['hardFail'];
  /** null when the episode ended without an answer. */
  task: TaskResult | null;
  /** Agent turns taken (T). */
  turns: number;
  /** The customer's act after each agent turn (index 0 = after turn 1); null where there was no reply. */
  replyActs: Array<UserAct | null>;
  /** Whether each agent turn made at least one successful tool call (index 0 = turn 1). */
  workedTurns: boolean[];
  /** The turn limit (recorded; r_eff does not depend on it since revision 2). */
  tMax: number;
  /** Sub-tasks of the episode (JOURNEY: its length; else 1). */
  nSub: number;
  recommendedIds: string[];
  seen: ReadonlyMap<string, number>;
  weights: RewardWeights;
  /** Turn of the answer that recommended the ids (for evidence). */
  answerTurn: number;
}

export const clip = (x: number, lo = -1, hi = 1) => Math.min(hi, Math.max(lo, x));

/** Why a turn was or was not charged to the agent. */
function turnCause(act: UserAct | null, worked: boolean): { caused: boolean; why: string } {
  if (act === 'confirm') return { caused: true, why: 'customer confirmed → not counted (customer-caused)' };
  if (act === 'clarify')
    return worked
      ? {
          caused: false,
          why: 'customer answered a question, but the turn also did tool work → counted (a working turn)',
        }
      : { caused: true, why: 'customer answered a question and no tool ran → not counted (customer-caused)' };
  return { caused: false, why: `${act === null ? 'no customer reply' : `customer replied "${act}"`} → counted` };
}

export function efficiency(turns: number, replyActs: Array<UserAct | null>, workedTurns: boolean[], nSub = 1) {
  const tRef = T_REF_PER_SUBTASK * Math.max(1, nSub);
  let tUser = 0;
  for (let i = 0; i < turns; i++) if (turnCause(replyActs[i] ?? null, workedTurns[i] ?? false).caused) tUser++;
  const tEff = Math.max(1, turns - tUser);
  const rEff = clip(1 - (2 * (tEff - 1)) / (tRef - 1));
  return { tUser, tEff, tRef, rEff };
}

export function hallucination(recommended: string[], seen: ReadonlyMap<string, number>) {
  const unique = [...new Set(recommended)];
  const hallucinated = unique.filter((id) => !seen.has(id));
  const rHall = -clip(hallucinated.length / Math.max(1, unique.length), 0, 1);
  return { hallucinated, rHall: rHall === 0 ? 0 : rHall };
}

/**
 * Revision 3's invention rule: an answer that names any id not in Seen has r_task = min(r_task, 0)
 * and does not pass. The result is returned unchanged when every id was seen.
 */
export function capInvention(
  task: TaskResult,
  ids: readonly string[],
  seen: ReadonlyMap<string, number>,
  turn: number,
): TaskResult {
  const invented = [...new Set(ids)].filter((id) => !seen.has(id));
  if (invented.length === 0) return task;
  const rTask = Math.min(task.rTask, 0);
  const evidence: EvidenceItem = {
    text: `${invented.length} id(s) were never retrieved (${invented.slice(0, 5).join(', ')}${invented.length > 5 ? ', …' : ''}): r_task = min(${num(task.rTask, 3)}, 0) = ${num(rTask, 3)}${verdict(false, ['an answer with invented ids does not pass'])}`,
    turns: [turn],
    ok: false,
    role: 'verdict',
  };
  // the verifier's own verdict becomes a component line: the task keeps one verdict, this one
  const before = task.evidence.map((e) =>
    e.role === 'verdict' && !e.depth ? Object.assign({}, e, { role: 'part' as const }) : e,
  );
  return { ...task, rTask, isCorrect: false, evidence: [...before, evidence] };
}

export function computeReward(input: RewardInput): RewardBreakdown {
  const { tUser, tEff, tRef, rEff } = efficiency(input.turns, input.replyActs, input.workedTurns, input.nSub);
  const { hallucinated, rHall } = hallucination(input.recommendedIds, input.seen);
  const scored: TaskResult = input.task ?? {
    rTask: -1,
    isCorrect: false,
    metrics: {},
    evidence: [
      {
        text: `no answer was given before the episode ended: r_task = −1${verdict(false)}`,
        turns: [],
        ok: false,
        role: 'verdict',
      },
    ],
  };
  // the task result already carries the invention rule (capInvention, applied by the episode)
  const task = scored;
  const rTask = clip(task.rTask);
  // no efficiency bonus without progress: only its penalty counts when r_task ≤ 0
  const effUsed = rTask > 0 ? rEff : Math.min(rEff, 0);
  const w = input.weights;
  const preClip = w.task * rTask + w.eff * effUsed + w.hall * rHall;
  const hard = input.hardFail !== null;

  const effEvidence: EvidenceItem[] = Array.from({ length: input.turns }, (_, i) => {
    const { caused, why } = turnCause(input.replyActs[i] ?? null, input.workedTurns[i] ?? false);
    return { text: `turn ${i + 1}: ${why}`, turns: [i + 1], ok: caused };
  });
  effEvidence.push({
    text: `T_eff = max(1, ${input.turns} − ${tUser}) = ${tEff}; T_ref = ${T_REF_PER_SUBTASK}·${Math.max(1, input.nSub)} = ${tRef} → r_eff = ${num(rEff, 3)}`,
    turns: [],
    ok: rEff > 0,
  });
  if (effUsed !== rEff)
    effEvidence.push({
      text: `r_task = ${num(rTask, 3)} ≤ 0: no efficiency bonus without progress, r_eff counts as min(r_eff, 0) = ${num(effUsed, 3)}`,
      turns: [],
      ok: false,
    });
  const hallEvidence: EvidenceItem[] = [...new Set(input.recommendedIds)].map((id) =>
    input.seen.has(id)
      ? { text: `${id} was retrieved at turn ${input.seen.get(id)}`, turns: [input.seen.get(id)!], ok: true }
      : { text: `${id} was recommended but never retrieved`, turns: [input.answerTurn], ok: false },
  );

  return {
    revision: REWARD_REVISION,
    total: hard ? -1 : clip(preClip),
    preClip: hard ? -1 : preClip,
    rTask,
    // the value that entered the reward (revision 3 drops a bonus earned without progress)
    rEff: effUsed,
    rHall,
    weights: w,
    isCorrect: !hard && task.isCorrect && rHall === 0,
    hardFail: input.hardFail,
    turns: input.turns,
    tUser,
    tEff,
    tMax: input.tMax,
    tRef,
    recommendedIds: [...new Set(input.recommendedIds)],
    hallucinatedIds: hallucinated,
    task,
    evidence: { task: task.evidence, eff: effEvidence, hall: hallEvidence },
  };
}

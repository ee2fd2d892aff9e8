// The composite reward (SPEC §8), with evidence linking each part to turns.

import type { EvidenceItem, RewardBreakdown, RewardWeights, TaskResult, UserAct } from './types';

/** An answer passes (is_correct) when its r_task reaches this (SPEC §5); the envs' verifiers use it. */
export const PASS_THRESHOLD = 0.95;

export interface RewardInput {
  hardFail: RewardBreakdown['hardFail'];
  /** null when the episode ended without an answer. */
  task: TaskResult | null;
  /** Agent turns taken (T). */
  turns: number;
  /** The customer's act after each agent turn (index 0 = after turn 1); null where there was no reply. */
  replyActs: Array<UserAct | null>;
  tMax: number;
  recommendedIds: string[];
  seen: ReadonlyMap<string, number>;
  weights: RewardWeights;
  /** Turn of the answer that recommended the ids (for evidence). */
  answerTurn: number;
}

export const clip = (x: number, lo = -1, hi = 1) => Math.min(hi, Math.max(lo, x));

const CUSTOMER_CAUSED: ReadonlySet<UserAct> = new Set(['confirm', 'clarify']);

export function efficiency(turns: number, replyActs: Array<UserAct | null>, tMax: number) {
  const tUser = replyActs.slice(0, turns).filter((a) => a !== null && CUSTOMER_CAUSED.has(a)).length;
  const tEff = Math.max(1, turns - tUser);
  const rEff = tMax <= 1 ? (tEff <= 1 ? 1 : -1) : clip(1 - (2 * (tEff - 1)) / (tMax - 1));
  return { tUser, tEff, rEff };
}

export function hallucination(recommended: string[], seen: ReadonlyMap<string, number>) {
  const unique = [...new Set(recommended)];
  const hallucinated = unique.filter((id) => !seen.has(id));
  const rHall = -clip(hallucinated.length / Math.max(1, unique.length), 0, 1);
  return { hallucinated, rHall: rHall === 0 ? 0 : rHall };
}

export function computeReward(input: RewardInput): RewardBreakdown {
  const { tUser, tEff, rEff } = efficiency(input.turns, input.replyActs, input.tMax);
  const { hallucinated, rHall } = hallucination(input.recommendedIds, input.seen);
  const task: TaskResult = input.task ?? {
    rTask: -1,
    isCorrect: false,
    metrics: {},
    evidence: [{ text: 'no answer was given before the episode ended: r_task = −1', turns: [], ok: false }],
  };
  const rTask = clip(task.rTask);
  const w = input.weights;
  const preClip = w.task * rTask + w.eff * rEff + w.hall * rHall;
  const hard = input.hardFail !== null;

  const effEvidence: EvidenceItem[] = input.replyActs.slice(0, input.turns).map((act, i) => {
    const caused = act !== null && CUSTOMER_CAUSED.has(act);
    return {
      text: `turn ${i + 1}: ${act === null ? 'no customer reply' : `customer replied "${act}"`} → ${caused ? 'not counted (customer-caused)' : 'counted'}`,
      turns: [i + 1],
      ok: caused,
    };
  });
  const hallEvidence: EvidenceItem[] = [...new Set(input.recommendedIds)].map((id) =>
    input.seen.has(id)
      ? { text: `${id} was retrieved at turn ${input.seen.get(id)}`, turns: [input.seen.get(id)!], ok: true }
      : { text: `${id} was recommended but never retrieved`, turns: [input.answerTurn], ok: false },
  );

  return {
    total: hard ? -1 : clip(preClip),
    preClip: hard ? -1 : preClip,
    rTask,
    rEff,
    rHall,
    weights: w,
    isCorrect: !hard && task.isCorrect,
    hardFail: input.hardFail,
    turns: input.turns,
    tUser,
    tEff,
    tMax: input.tMax,
    recommendedIds: [...new Set(input.recommendedIds)],
    hallucinatedIds: hallucinated,
    task,
    evidence: { task: task.evidence, eff: effEvidence, hall: hallEvidence },
  };
}

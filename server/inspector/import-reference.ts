// The Python reference implementation's episode traces (fixtures/reference-traces/README.md):
// one pretty-printed JSON object per file, no per-step record. Steps are rebuilt from the
// conversation and the flat tool-call list, split by the README's "tool calls per step"
// column when the README is given (else inferred, see docs/inspector.md).
import { z } from 'zod';
import { axesFor } from '@/server/engine/difficulty';
import {
  DEFAULT_WEIGHTS,
  ENV_IDS,
  type EpisodeEvent,
  type EvidenceItem,
  type RewardBreakdown,
  type UserAct,
} from '@/server/engine/types';
import type { EpisodeRecord } from './insert';
import { rescoreByFormula, type RewardParts } from './rescore';

const num = z.number();
export const referenceTraceSchema = z.object({
  env_id: z.enum(ENV_IDS),
  difficulty: z.int().min(0),
  seed: z.int(),
  turn: z.int().min(1),
  done: z.boolean(),
  reward: num,
  reward_breakdown: z.object({
    r_task: num,
    r_eff: num,
    r_hall: num,
    r_total: num,
    format_valid: z.boolean(),
    tool_valid: z.boolean(),
    safety_valid: z.boolean(),
    is_correct: z.boolean(),
    details: z.record(z.string(), z.unknown()),
  }),
  conversation: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })).min(1),
  tool_results_history: z.array(
    z.object({
      name: z.string(),
      args: z.unknown(),
      result: z.unknown(),
      error: z.string().nullable(),
      duration_ms: num.optional(),
    }),
  ),
  seen_product_ids: z.array(z.string()),
  timing: z.unknown(),
  hidden_goal: z
    .object({
      env_id: z.string(),
      target_product_ids: z.array(z.string()),
      constraints: z.array(z.unknown()),
      extra: z.unknown(),
    })
    .loose(),
});
export type ReferenceTrace = z.infer<typeof referenceTraceSchema>;

export interface ManifestRow {
  policy: string;
  callsPerStep: number[];
  acts: UserAct[];
}

/** The README's "Files" table: file name → policy, tool calls per step, customer acts. */
export function parseReferenceManifest(readme: string): Map<string, ManifestRow> {
  const out = new Map<string, ManifestRow>();
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const file = cells[1]?.match(/^`(episode_\d+_[A-Z]+_d\d+_s\d+\.json)`$/)?.[1];
    if (!file || cells.length < 11) continue;
    const callsPerStep = cells[9].split(',').map((s) => Number(s.trim()));
    const acts = cells[10] === '—' ? [] : (cells[10].split(',').map((s) => s.trim()) as UserAct[]);
    if (callsPerStep.some((n) => !Number.isInteger(n))) continue;
    out.set(file, { policy: cells[5], callsPerStep, acts });
  }
  return out;
}

/** Without the README: one call per step from step 1, the rest in the last step before the answer. */
export function inferCallsPerStep(calls: number, steps: number): number[] {
  const split = new Array<number>(steps).fill(0);
  const working = Math.max(1, steps - 1);
  for (let i = 0; i < calls; i++) split[Math.min(i, working - 1)]++;
  return split;
}

const bool = (v: unknown) => v === true;

export function referenceToRecord(
  trace: ReferenceTrace,
  fileName: string,
  manifest: ManifestRow | undefined,
): EpisodeRecord {
  const rb = trace.reward_breakdown;
  const det = rb.details;
  const steps = trace.turn;
  const split = manifest?.callsPerStep ?? inferCallsPerStep(trace.tool_results_history.length, steps);
  if (split.length !== steps || split.reduce((a, b) => a + b, 0) !== trace.tool_results_history.length)
    throw new Error(
      `the README's tool calls per step (${split.join(', ')}) do not fit ${steps} step(s) and ${trace.tool_results_history.length} call(s)`,
    );
  const userClarif = typeof det.user_clarification_turns === 'number' ? det.user_clarification_turns : 0;
  const acts: Array<UserAct | null> = manifest
    ? manifest.acts
    : Array.from({ length: steps - 1 }, (_, i) => (i < userClarif ? 'clarify' : 'continue'));
  const conv = trace.conversation;
  const outputIds = Array.isArray(det.output_ids) ? (det.output_ids as string[]) : [];
  const seen = new Set(trace.seen_product_ids);

  const events: EpisodeEvent[] = [{ kind: 'customer_message', turn: 0, text: conv[0].content, act: 'opening' }];
  const okCalls: number[] = [];
  let k = 0;
  for (let t = 1; t <= steps; t++) {
    const msg = conv[2 * t - 1];
    events.push({ kind: 'agent_message', turn: t, text: msg?.role === 'assistant' ? msg.content : '' });
    let ok = 0;
    for (let i = 0; i < split[t - 1]; i++, k++) {
      const c = trace.tool_results_history[k];
      events.push({
        kind: 'tool_call',
        turn: t,
        index: i,
        name: c.name,
        args: c.args,
        result: c.result,
        error: c.error,
      });
      if (c.error === null) ok++;
    }
    okCalls.push(ok);
    if (t === steps && trace.done && conv[conv.length - 1].role === 'assistant') {
      // The file keeps only the answer's product ids (details.output_ids).
      events.push({
        kind: 'answer',
        turn: t,
        answer: { env: trace.env_id, done: true, recommended_product_ids: outputIds },
      });
    }
    const reply = conv[2 * t];
    if (reply?.role === 'user')
      events.push({ kind: 'customer_message', turn: t, text: reply.content, act: acts[t - 1] ?? 'continue' });
  }
  const hardFail = bool(det.hard_fail) || !rb.format_valid || !rb.tool_valid || !rb.safety_valid;
  const reason = !rb.format_valid
    ? 'format_invalid'
    : !rb.tool_valid
      ? 'tool_invalid'
      : !rb.safety_valid
        ? 'safety_violation'
        : conv[conv.length - 1].role === 'assistant'
          ? 'answered'
          : 'turn_budget';
  const weights = {
    task: typeof det.w_task === 'number' ? det.w_task : DEFAULT_WEIGHTS.task,
    eff: typeof det.w_eff === 'number' ? det.w_eff : DEFAULT_WEIGHTS.eff,
    hall: typeof det.w_hall === 'number' ? det.w_hall : DEFAULT_WEIGHTS.hall,
  };
  const tMax = typeof det.t_max === 'number' ? det.t_max : axesFor(trace.difficulty).T_max;
  const hallucinated = outputIds.filter((id) => !seen.has(id));
  const effEvidence: EvidenceItem[] = Array.from({ length: steps }, (_, i) => {
    const act = acts[i] ?? null;
    const caused = act === 'confirm' || act === 'clarify';
    return {
      text: `turn ${i + 1}: ${act === null ? 'no customer reply' : `customer replied "${act}"`} → ${caused ? 'not counted (reference rule)' : 'counted'}`,
      turns: [i + 1],
      ok: caused,
    };
  });
  const taskEvidence: EvidenceItem[] = [
    {
      text: `r_task = ${rb.r_task} from the reference verifier (${rb.is_correct ? 'correct' : 'not correct'}); its evidence is not in the file`,
      turns: [steps],
      ok: rb.is_correct,
    },
  ];
  const breakdown: RewardBreakdown = {
    // recorded under the reference's rules: revision 1 (r_eff normalised by T_max)
    revision: 1,
    tRef: tMax,
    total: rb.r_total,
    preClip: typeof det.r_total_pre_clip === 'number' ? det.r_total_pre_clip : rb.r_total,
    rTask: rb.r_task,
    rEff: rb.r_eff,
    rHall: rb.r_hall === 0 ? 0 : rb.r_hall,
    weights,
    isCorrect: rb.is_correct,
    hardFail: hardFail ? (reason as RewardBreakdown['hardFail']) : null,
    turns: steps,
    tUser: userClarif,
    tEff: typeof det.effective_turns === 'number' ? det.effective_turns : steps - userClarif,
    tMax,
    recommendedIds: outputIds,
    hallucinatedIds: hallucinated,
    task: { rTask: rb.r_task, isCorrect: rb.is_correct, metrics: {}, evidence: taskEvidence },
    evidence: {
      task: taskEvidence,
      eff: effEvidence,
      hall: outputIds.map((id) =>
        seen.has(id)
          ? { text: `${id} was retrieved`, turns: [], ok: true }
          : { text: `${id} was recommended but never retrieved`, turns: [steps], ok: false },
      ),
    },
  };
  events.push({ kind: 'termination', turn: steps, reason: reason as 'answered' });
  events.push({ kind: 'reward', turn: steps, breakdown });

  const extra = trace.hidden_goal.extra;
  const nIntents =
    trace.env_id === 'JOURNEY'
      ? Number((typeof extra === 'string' ? extra : JSON.stringify(extra)).match(/'?n_intents'?\s*:\s*(\d+)/)?.[1] ?? 1)
      : 1;
  const recordedParts: RewardParts = {
    total: rb.r_total,
    rTask: rb.r_task,
    rEff: rb.r_eff,
    rHall: breakdown.rHall,
    isCorrect: rb.is_correct,
    turns: steps,
    tUser: userClarif,
    tEff: breakdown.tEff,
  };
  const rescored = rescoreByFormula(
    {
      hardFail,
      rTask: rb.r_task,
      verdict: rb.is_correct,
      turns: steps,
      replyActs: acts,
      okToolCalls: okCalls,
      nSub: nIntents,
      recommended: outputIds,
      seen,
      weights,
    },
    recordedParts,
  );
  const summary = [
    `reference trace ${fileName}${manifest ? ` (policy ${manifest.policy})` : ''}`,
    ...(trace.hidden_goal.target_product_ids.length
      ? [`target products: ${trace.hidden_goal.target_product_ids.join(', ')}`]
      : []),
    ...trace.hidden_goal.constraints.map((c) => {
      const x = c as { attr?: unknown; op?: unknown; value?: unknown };
      return `constraint: ${String(x.attr)} ${String(x.op)} ${String(x.value)}`;
    }),
    `T_max ${tMax}; the goal's other data is kept as recorded`,
  ];
  return {
    envId: trace.env_id,
    d: trace.difficulty,
    seed: trace.seed,
    axisOverrides: {},
    axes: { ...axesFor(trace.difficulty), T_max: tMax },
    weights,
    catalogId: 'reference:synthetic-1000',
    status: 'done',
    terminationReason: reason,
    reward: trace.reward,
    isCorrect: rb.is_correct,
    breakdown,
    turn: steps,
    player: manifest ? `reference:${manifest.policy}` : 'reference',
    hiddenGoal: { envId: trace.env_id, summary, data: trace.hidden_goal },
    events,
    actions: [],
    goalRevealed: false,
    origin: 'import:reference',
    runLabel: 'reference-traces',
    recorded: {
      reward: trace.reward,
      isCorrect: rb.is_correct,
      parts: recordedParts,
      file: fileName,
      stepsSplit: manifest ? 'README table' : 'inferred',
    },
    rescored,
    prompts: null,
  };
}

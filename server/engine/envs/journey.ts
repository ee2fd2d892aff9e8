// JOURNEY: 2–5 sub-tasks from the atomic environments in one conversation and
// one shared world (SPEC §7). FIX: every sub-answer is collected and scored by
// its own verifier; a missing one scores −1.
//
// Choices (docs/environments.md): sub-tasks are distinct environments (one cart,
// so at most one CART); a sub-answer is scored when it is given, against the
// world as it is then, and the result is kept in the task's state (verify only
// reads it, so it can be re-run); the turn budget is T_max per sub-task; with p_switch the
// customer raises the next sub-task before the current one is answered and comes
// back to it afterwards.
//
// JOURNEY is built from the atomic environments it is given (envs/registry.ts passes them), so
// this file imports no registry. An episode may record the env ids it draws from
// (ctx.journeyEnvs): a ninth env added later does not change a stored JOURNEY's seeds.

import { z } from 'zod';
import { Rng } from '../random';
import type { AxisValues } from '../difficulty';
import { nested, num, verdict } from '../evidence';
import { capInvention } from '../reward';
import { answerQuestion } from '../customer/slots';
import { sentence } from '../customer/reply-rules';
import { ENGINE_VERSION, V4_RULES } from '../version';
import type { EnvId, EvidenceItem, TaskResult } from '../types';
import type { ToolName } from '../tools';
import type { Answer, CustomerReply, EnvContext, EnvDefinition, EnvTask, TurnInfo, VerifyContext } from './types';

/** One sub-task as generated: its env and hidden goal (never changed). */
export interface JourneySubtask {
  envId: string;
  goal: unknown;
}

export interface JourneyGoal {
  subtasks: JourneySubtask[];
  /** Seed of the context-switch draws (hooks get no Rng of their own). */
  switchSeed: number;
}

/** A sub-answer as given, scored by its env's verifier against the world at that moment. */
export interface SubAnswer {
  fields: Answer;
  turn: number;
  result: TaskResult;
}

/** JOURNEY's progress: everything its hooks change. */
export interface JourneyState {
  /** The sub-tasks with their own state and slots (tasks[i].goal is subtasks[i].goal). */
  tasks: EnvTask<unknown, unknown>[];
  /** The sub-task the conversation is on. */
  current: number;
  /** Sub-tasks put aside by a context switch, to come back to (last in, first out). */
  deferred: number[];
  /** Sub-tasks the customer already switched away from (at most once each). */
  switched: number[];
  /** Per sub-task: its answer once given. */
  answers: Array<SubAnswer | null>;
}

type JourneyTask = EnvTask<JourneyGoal, JourneyState>;

const OPENINGS = [
  'Hi! I have a few things to sort out today. First: {first}',
  "Hello, I need help with several things. Let's start with this one: {first}",
  "Hey there. I've got a couple of requests, one at a time. {first}",
  'Hi, I have a short list for you today, more after this one. {first}',
  'Good morning! A few errands for you. To begin with: {first}',
];
const NEXT = ['Thanks! Next thing: {opening}', 'Great. Another thing: {opening}', 'OK, now something else. {opening}'];
const SWITCH = ['Oh wait, before I forget, something else: {opening}', 'Actually, let me ask this first: {opening}'];
const BACK = ['Now back to what I asked earlier: {opening}', 'Thanks. Going back to my earlier request: {opening}'];

/** The atomic environments a journey can use, by id (given to createJourneyEnv). */
interface SubEnvs {
  all: readonly EnvDefinition<unknown>[];
  get(id: string): EnvDefinition<unknown>;
}

function subEnvs(atomic: readonly EnvDefinition<unknown>[]): SubEnvs {
  const all = atomic;
  const byId = new Map(all.map((env) => [env.id as string, env]));
  return {
    all,
    get(id) {
      const env = byId.get(id);
      if (!env)
        throw new Error(
          `JOURNEY: no environment "${id}" among the ones it draws from (${[...byId.keys()].join(', ')})`,
        );
      return env;
    },
  };
}

/** The envs this episode's journey draws from: the recorded set when the config has one, else every atomic env. */
function poolFor(envs: SubEnvs, recorded: readonly EnvId[] | undefined): readonly EnvDefinition<unknown>[] {
  return recorded ? recorded.map((id) => envs.get(id)) : envs.all;
}

function generate(envs: SubEnvs, ctx: EnvContext, rng: Rng): JourneyTask {
  const pool = poolFor(envs, ctx.journeyEnvs);
  const chosen = rng.sample(pool, Math.min(ctx.knobs.journeyLength, pool.length));
  const tasks = chosen.map((env) => env.generate(ctx, rng.fork(env.id)));
  const goal: JourneyGoal = {
    subtasks: chosen.map((env, i) => ({ envId: env.id, goal: tasks[i].goal })),
    switchSeed: rng.int(0, 2 ** 31),
  };
  const state: JourneyState = { tasks, current: 0, deferred: [], switched: [], answers: tasks.map(() => null) };
  const opening = rng.pick(OPENINGS).replace('{first}', tasks[0].opening);
  // Only the sub-task under discussion has slots the customer can reveal: a question about
  // shipping during a SUB request must not reveal the PD request's shipping deadline.
  return {
    goal,
    state,
    opening,
    get slots() {
      return state.tasks[state.current].slots;
    },
  };
}

const midTurn = (ctx: EnvContext) => (ctx.engineVersion ?? ENGINE_VERSION) >= V4_RULES;
const isOpen = (state: JourneyState, i: number) => state.tasks[i] !== undefined && state.answers[i] === null;
const phrase = (templates: string[], turn: number, opening: string) =>
  templates[turn % templates.length].replace('{opening}', opening);
const envOf = (envs: SubEnvs, goal: JourneyGoal, i: number) => envs.get(goal.subtasks[i].envId);

/** After the current sub-task is answered: back to a deferred one, else the next open one. */
function advance(state: JourneyState): { index: number; back: boolean } | null {
  const back = [...state.deferred].reverse().find((i) => isOpen(state, i));
  if (back !== undefined) {
    state.deferred = state.deferred.filter((i) => i !== back);
    state.current = back;
    return { index: back, back: true };
  }
  const next = state.tasks.findIndex((_, i) => isOpen(state, i));
  if (next < 0) return null;
  state.current = next;
  return { index: next, back: false };
}

/**
 * p_switch: the customer brings up the next sub-task before the current one is answered. From
 * v4 (V4_RULES) the switch rides on the answer to the agent's question, in one message:
 * an agent that takes the message for one request loses the answer or the new request.
 */
function maybeSwitch(task: JourneyTask, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const { state } = task;
  const next = state.tasks.findIndex((_, i) => i > state.current && isOpen(state, i) && !state.deferred.includes(i));
  if (next < 0 || state.switched.includes(state.current)) return null;
  if (!Rng.from('switch', task.goal.switchSeed, info.turn).bernoulli(ctx.axes.p_switch)) return null;
  const answered = midTurn(ctx) ? answerQuestion(info.agentMessage, state.tasks[state.current].slots) : null;
  state.switched.push(state.current);
  state.deferred.push(state.current);
  state.current = next;
  const text = phrase(SWITCH, info.turn, state.tasks[next].opening);
  if (!answered) return { text, act: 'continue' };
  answered.slot.revealed = true;
  return { text: `${sentence([answered.slot.revealText])} ${text}`, act: answered.fishing ? 'elaborate' : 'clarify' };
}

/** A hook of the sub-task being discussed, applied to its own task. */
function delegate(
  envs: SubEnvs,
  hook: 'confirm' | 'respond',
  task: JourneyTask,
  info: TurnInfo,
  ctx: EnvContext,
): CustomerReply | null {
  const i = task.state.current;
  if (!isOpen(task.state, i)) return null;
  return envOf(envs, task.goal, i)[hook]?.(task.state.tasks[i], info, ctx) ?? null;
}

/**
 * Which open sub-task each sub-answer of an answer is for: by subtask_index when given, else
 * the current sub-task if its env matches, else the first open one of that env. Pure.
 */
export function route(
  goal: JourneyGoal,
  state: JourneyState,
  answer: Answer | null,
): Array<{ index: number; fields: Answer }> {
  const taken = new Set<number>();
  const out: Array<{ index: number; fields: Answer }> = [];
  const open = (i: number) => isOpen(state, i) && !taken.has(i);
  for (const sub of (answer?.subtasks as Answer[] | undefined) ?? []) {
    const { subtask_index, ...fields } = sub as Answer & { subtask_index?: number };
    const index =
      subtask_index ??
      (goal.subtasks[state.current]?.envId === fields.env && open(state.current)
        ? state.current
        : goal.subtasks.findIndex((s, i) => s.envId === fields.env && open(i)));
    if (!goal.subtasks[index] || goal.subtasks[index].envId !== fields.env || !open(index)) continue;
    taken.add(index);
    out.push({ index, fields });
  }
  return out;
}

/** The sub-answer scored now by its own (pure) verifier. */
function score(
  envs: SubEnvs,
  goal: JourneyGoal,
  state: JourneyState,
  index: number,
  fields: Answer,
  ctx: VerifyContext,
): SubAnswer {
  const env = envOf(envs, goal, index);
  const { goal: subGoal } = goal.subtasks[index];
  const subState = state.tasks[index].state;
  const verified = env.verify(subGoal, subState, Object.assign({}, fields, { done: true }), ctx);
  // SPEC §8 rev 3: a sub-answer naming a never-retrieved id scores at most 0
  const result = capInvention(verified, env.recommendedIds(fields, ctx, subGoal, subState), ctx.seen, ctx.turn);
  return { fields, turn: ctx.turn, result };
}

function onAnswer(
  envs: SubEnvs,
  task: JourneyTask,
  answer: Answer,
  info: TurnInfo,
  ctx: VerifyContext,
): CustomerReply | null {
  const { goal, state } = task;
  for (const { index, fields } of route(goal, state, answer))
    state.answers[index] = score(envs, goal, state, index, fields, ctx);
  if (isOpen(state, state.current)) return null; // nothing for the current sub-task: the usual policy replies
  const move = advance(state);
  if (!move) return { text: "That's everything I needed, thank you! You can wrap up.", act: 'confirm' };
  return { text: phrase(move.back ? BACK : NEXT, info.turn, state.tasks[move.index].opening), act: 'continue' };
}

/** The recorded sub-answers plus those of the final answer (scored now, not recorded: verify writes nothing). */
function allAnswers(
  envs: SubEnvs,
  goal: JourneyGoal,
  state: JourneyState,
  answer: Answer | null,
  ctx: VerifyContext,
): Array<SubAnswer | null> {
  const answers = [...state.answers];
  for (const { index, fields } of route(goal, state, answer))
    answers[index] = score(envs, goal, state, index, fields, ctx);
  return answers;
}

function verify(
  envs: SubEnvs,
  goal: JourneyGoal,
  state: JourneyState,
  answer: Answer | null,
  ctx: VerifyContext,
): TaskResult {
  const answers = allAnswers(envs, goal, state, answer, ctx);
  const evidence: EvidenceItem[] = [];
  const scores = goal.subtasks.map((sub, i) => {
    const label = `sub-task ${i + 1} (${sub.envId})`;
    const given = answers[i];
    if (!given) {
      evidence.push({ text: `${label}: no answer → −1`, turns: [], ok: false, role: 'part' });
      return -1;
    }
    evidence.push({
      text: `${label}: r_task ${num(given.result.rTask, 3)}${given.result.isCorrect ? ' (pass)' : ' (fail)'}`,
      turns: [given.turn],
      ok: given.result.isCorrect,
      role: 'part',
    });
    evidence.push(...nested(given.result.evidence, `  ${label}: `));
    return given.result.rTask;
  });
  const rTask = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
  const passed = answers.filter((a) => a?.result.isCorrect).length;
  const pass = passed === goal.subtasks.length;
  const failing = goal.subtasks.map((_, i) => i + 1).filter((n) => !answers[n - 1]?.result.isCorrect);
  evidence.push({
    text: `r_task = mean of ${scores.length} sub-task r_task = ${num(rTask, 3)}${verdict(pass, [`sub-task${failing.length > 1 ? 's' : ''} ${failing.join(', ')} did not pass`])}`,
    turns: [],
    ok: pass,
    role: 'verdict',
  });
  return {
    rTask,
    isCorrect: pass,
    metrics: { subtasks: goal.subtasks.length, answered: answers.filter(Boolean).length, passed },
    evidence,
  };
}

function subAnswerSchemas(envs: SubEnvs) {
  return envs.all.map((env) =>
    env.answerSchema.extend({ env: z.literal(env.id), subtask_index: z.int().min(0).optional() }),
  );
}

const ANSWER_KEYS = new Set(['subtasks', 'env', 'done']);

/**
 * The answer check without the union: a sub-answer can only pass the schema of the env it names
 * (each has env: z.literal), so parsing it with that schema alone gives what the union gives,
 * without building a failed parse per other env. Anything unusual falls back to the union.
 * Kept for speed: with the union alone JOURNEY's step p50 on bench:engine went ~0.11 → ~0.17 ms.
 */
function parseAnswerFast(bySubEnv: ReadonlyMap<string, z.ZodObject>, answer: unknown): Answer | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return undefined;
  const { subtasks, env, done } = answer as Answer;
  if (env !== 'JOURNEY' || typeof done !== 'boolean' || !Array.isArray(subtasks)) return undefined;
  if (Object.keys(answer).some((k) => !ANSWER_KEYS.has(k))) return undefined;
  const parsed: unknown[] = [];
  for (const sub of subtasks) {
    const schema = typeof sub === 'object' && sub !== null ? bySubEnv.get((sub as Answer).env as string) : undefined;
    const result = schema && schema.safeParse(sub);
    if (!result?.success) return undefined;
    parsed.push(result.data);
  }
  return { subtasks: parsed, env, done };
}

// A sub-task's summary lines indented under its header. Most sub-envs keep their (frozen) lines
// per goal until the stock changes (shared/summary-cache.ts): their indented copy is kept too.
// A fresh list (CART's) is not: a weak entry per dead list made GC two thirds of the time.
const INDENTED = new WeakMap<readonly string[], string[]>();
const indent = (lines: readonly string[]) => lines.map((l) => `   ${l}`);
function indented(lines: readonly string[]): readonly string[] {
  if (!Object.isFrozen(lines)) return indent(lines);
  let out = INDENTED.get(lines);
  if (!out) INDENTED.set(lines, (out = indent(lines)));
  return out;
}

/** JOURNEY over the given atomic environments (their order is part of the seeds). */
export function createJourneyEnv(
  atomic: readonly EnvDefinition<unknown, unknown>[],
): EnvDefinition<JourneyGoal, JourneyState> {
  const envs = subEnvs(atomic);
  // Built on first use and then kept: zod compiles a fresh schema again on its first parse,
  // which cost 0.3 ms per access (issue 13).
  let tools: readonly ToolName[] | null = null;
  let answerSchema: z.ZodObject | null = null;
  let subSchemaByEnv: Map<string, z.ZodObject> | null = null;
  return {
    id: 'JOURNEY',
    name: 'Multi-intent journey',
    description:
      'Two to five requests in one conversation. Answer each one (done: false moves on); finish with done: true.',
    passRule: 'every sub-task passes by its own rule',
    // Every tool of the atomic environments, plus order.checkout: placing an order only makes
    // sense in a longer journey (in CART the cart itself is the answer).
    get tools() {
      tools ??= [...new Set([...envs.all.flatMap((e) => e.tools), 'order.checkout' as const])];
      return tools;
    },
    get answerSchema() {
      if (!answerSchema) {
        const schemas = subAnswerSchemas(envs);
        subSchemaByEnv = new Map(schemas.map((schema, i) => [envs.all[i].id as string, schema]));
        const item =
          schemas.length === 1
            ? schemas[0]
            : z.union(schemas as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
        answerSchema = z.strictObject({
          subtasks: z.array(item).describe('one entry per sub-task answered in this turn, each with its env id'),
        });
      }
      return answerSchema;
    },
    parseAnswer(answer) {
      if (!subSchemaByEnv) void this.answerSchema;
      return parseAnswerFast(subSchemaByEnv!, answer);
    },
    generate: (ctx, rng) => generate(envs, ctx, rng),
    // v4 draws the switch ahead of the reply rules' answer to a question (it answers it itself)
    confirm: (task, info, ctx) =>
      delegate(envs, 'confirm', task, info, ctx) ?? (midTurn(ctx) ? maybeSwitch(task, info, ctx) : null),
    respond: (task, info, ctx) =>
      (midTurn(ctx) ? null : maybeSwitch(task, info, ctx)) ?? delegate(envs, 'respond', task, info, ctx),
    outOfStock(task, firstSeen, ctx, draw) {
      // Every step, for every sub-task (answered ones too: their items' stock is the world's). A
      // plain loop, and a list only once an id goes: the ids in the order a Set of them had, with
      // no Set, closure or spread per step (issue 13; flatMap is a slow path in node 20).
      const { tasks } = task.state;
      let ids: string[] | null = null;
      for (let i = 0; i < tasks.length; i++) {
        const env = envOf(envs, task.goal, i);
        if (!env.outOfStock) continue;
        for (const id of env.outOfStock(tasks[i], firstSeen, ctx, draw))
          if (ids === null) ids = [id];
          else if (!ids.includes(id)) ids.push(id);
      }
      return ids ?? [];
    },
    otherStock(task, id, ctx) {
      // rewarded when any sub-task's goal would reward it; a variant strike when any sub-task strikes so
      let how: 'product' | 'variant' | null = 'product';
      for (let i = 0; i < task.state.tasks.length; i++) {
        const env = envOf(envs, task.goal, i);
        if (!env.otherStock) continue;
        const sub = env.otherStock(task.state.tasks[i], id, ctx);
        if (sub === null) return null;
        if (sub === 'variant') how = 'variant';
      }
      return how;
    },
    onAnswer: (task, answer, info, ctx) => onAnswer(envs, task, answer, info, ctx),
    turnBudget: (task, axes: AxisValues) => axes.T_max * task.goal.subtasks.length,
    subtaskCount: (task) => task.goal.subtasks.length,
    nudges: ['Any progress on that?', 'Can you help with that?', 'What do you think?'],
    verify: (goal, state, answer, ctx) => verify(envs, goal, state, answer, ctx),
    scoresInventionPerSubtask: true,
    recommendedIds(answer, ctx, goal, state) {
      // The recorded sub-answers' ids, then the final answer's, once each in that order: loops
      // into one Set, not two flatMaps and spreads (a slow path in node 20, issue 13; run in every
      // episode's finish). The sub-envs' recommendedIds and route are pure: the order of the calls
      // does not matter.
      const ids = new Set<string>();
      const add = (index: number, fields: Answer) => {
        const env = envOf(envs, goal, index);
        for (const id of env.recommendedIds(fields, ctx, goal.subtasks[index].goal, state.tasks[index].state))
          ids.add(id);
      };
      state.answers.forEach((a, i) => {
        if (a) add(i, a.fields);
      });
      for (const { index, fields } of route(goal, state, answer)) add(index, fields);
      return [...ids];
    },
    summarize: (goal, ctx, state) => {
      const lines: string[] = [];
      goal.subtasks.forEach((s, i) => {
        lines.push(`${i + 1}. ${s.envId}${state.answers[i] ? ` (answered at turn ${state.answers[i]!.turn})` : ''}`);
        for (const line of indented(envOf(envs, goal, i).summarize(s.goal, ctx, state.tasks[i].state)))
          lines.push(line);
      });
      return lines;
    },
  };
}

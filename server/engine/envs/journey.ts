// JOURNEY: 2–5 sub-tasks from the atomic environments in one conversation and
// one shared world (SPEC §7). FIX: every sub-answer is collected and scored by
// its own verifier; a missing one scores −1.
//
// Choices (docs/environments.md): sub-tasks are distinct environments (one cart,
// so at most one CART); a sub-answer is scored when it is given, against the
// world as it is then; the turn budget is T_max per sub-task; with p_switch the
// customer raises the next sub-task before the current one is answered and comes
// back to it afterwards.

import { z } from 'zod';
import { Rng } from '../random';
import type { AxisValues } from '../difficulty';
import type { EvidenceItem, TaskResult } from '../types';
import { availableEnvs, getEnv } from './registry';
import type { Answer, CustomerReply, EnvContext, EnvDefinition, EnvTask, TurnInfo, VerifyContext } from './types';

export interface JourneySubtask {
  envId: string;
  task: EnvTask<unknown>;
  /** The sub-answer once given, scored at that moment. */
  answer: Answer | null;
  result: TaskResult | null;
  answeredAtTurn: number | null;
}

export interface JourneyGoal {
  subtasks: JourneySubtask[];
  /** The sub-task the conversation is on. */
  current: number;
  /** Sub-tasks put aside by a context switch, to come back to (last in, first out). */
  deferred: number[];
  /** Sub-tasks the customer already switched away from (at most once each). */
  switched: number[];
  /** Seed of the context-switch draws (hooks get no Rng of their own). */
  switchSeed: number;
}

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

/** Atomic environments a journey draws from (all registered ones except JOURNEY itself). */
export const journeyEnvs = () => availableEnvs().filter((e) => e.id !== 'JOURNEY');

function generate(ctx: EnvContext, rng: Rng): EnvTask<JourneyGoal> {
  const pool = journeyEnvs();
  const chosen = rng.sample(pool, Math.min(ctx.knobs.journeyLength, pool.length));
  const subtasks = chosen.map((env) => ({ envId: env.id, task: env.generate(ctx, rng.fork(env.id)), answer: null, result: null, answeredAtTurn: null }));
  const goal: JourneyGoal = { subtasks, current: 0, deferred: [], switched: [], switchSeed: rng.int(0, 2 ** 31) };
  const opening = rng.pick(OPENINGS).replace('{first}', subtasks[0].task.opening);
  // Only the sub-task under discussion has slots the customer can reveal: a question about
  // shipping during a SUB request must not reveal the PD request's shipping deadline.
  return {
    goal,
    opening,
    get slots() {
      return goal.subtasks[goal.current].task.slots;
    },
  };
}

const isOpen = (goal: JourneyGoal, i: number) => goal.subtasks[i] !== undefined && goal.subtasks[i].answer === null;
const phrase = (templates: string[], turn: number, opening: string) => templates[turn % templates.length].replace('{opening}', opening);

/** After the current sub-task is answered: back to a deferred one, else the next open one. */
function advance(goal: JourneyGoal): { index: number; back: boolean } | null {
  const back = [...goal.deferred].reverse().find((i) => isOpen(goal, i));
  if (back !== undefined) {
    goal.deferred = goal.deferred.filter((i) => i !== back);
    goal.current = back;
    return { index: back, back: true };
  }
  const next = goal.subtasks.findIndex((_, i) => isOpen(goal, i));
  if (next < 0) return null;
  goal.current = next;
  return { index: next, back: false };
}

/** p_switch: the customer brings up the next sub-task before the current one is answered. */
function maybeSwitch(task: EnvTask<JourneyGoal>, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const goal = task.goal;
  const next = goal.subtasks.findIndex((_, i) => i > goal.current && isOpen(goal, i) && !goal.deferred.includes(i));
  if (next < 0 || goal.switched.includes(goal.current)) return null;
  if (!Rng.from('switch', goal.switchSeed, info.turn).bernoulli(ctx.axes.p_switch)) return null;
  goal.switched.push(goal.current);
  goal.deferred.push(goal.current);
  goal.current = next;
  return { text: phrase(SWITCH, info.turn, goal.subtasks[next].task.opening), act: 'continue' };
}

/** A hook of the sub-task being discussed, applied to its own task. */
function delegate(hook: 'confirm' | 'react', task: EnvTask<JourneyGoal>, info: TurnInfo, ctx: EnvContext): CustomerReply | null {
  const sub = task.goal.subtasks[task.goal.current];
  if (!sub || sub.answer) return null;
  return getEnv(sub.envId)[hook]?.(sub.task, info, ctx) ?? null;
}

/** Routes each sub-answer: by subtask_index when given, else the current sub-task if its env matches, else the first open one of that env. */
function record(goal: JourneyGoal, answer: Answer, ctx: VerifyContext) {
  for (const sub of (answer.subtasks as Answer[] | undefined) ?? []) {
    const { subtask_index, ...fields } = sub as Answer & { subtask_index?: number };
    const current = goal.subtasks[goal.current];
    const index =
      subtask_index ??
      (current && current.envId === fields.env && current.answer === null
        ? goal.current
        : goal.subtasks.findIndex((s) => s.envId === fields.env && s.answer === null));
    const target = goal.subtasks[index];
    if (!target || target.envId !== fields.env || target.answer !== null) continue;
    target.answer = fields;
    target.answeredAtTurn = ctx.turn;
    target.result = getEnv(target.envId).verify(target.task.goal, { ...fields, done: true }, ctx);
  }
}

function onAnswer(task: EnvTask<JourneyGoal>, answer: Answer, info: TurnInfo, ctx: VerifyContext): CustomerReply | null {
  record(task.goal, answer, ctx);
  if (isOpen(task.goal, task.goal.current)) return null; // nothing for the current sub-task: the usual policy replies
  const move = advance(task.goal);
  if (!move) return { text: "That's everything I needed, thank you! You can wrap up.", act: 'confirm' };
  return { text: phrase(move.back ? BACK : NEXT, info.turn, task.goal.subtasks[move.index].task.opening), act: 'continue' };
}

function verify(goal: JourneyGoal, answer: Answer | null, ctx: VerifyContext): TaskResult {
  if (answer) record(goal, answer, ctx);
  const evidence: EvidenceItem[] = [];
  const scores = goal.subtasks.map((sub, i) => {
    const label = `sub-task ${i + 1} (${sub.envId})`;
    if (!sub.result) {
      evidence.push({ text: `${label}: no answer → −1`, turns: [], ok: false });
      return -1;
    }
    evidence.push({ text: `${label}: r_task ${sub.result.rTask.toFixed(3)}${sub.result.isCorrect ? ' (pass)' : ' (fail)'}`, turns: [sub.answeredAtTurn!], ok: sub.result.isCorrect });
    for (const e of sub.result.evidence) evidence.push({ ...e, text: `  ${label}: ${e.text}` });
    return sub.result.rTask;
  });
  const rTask = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
  const passed = goal.subtasks.filter((s) => s.result?.isCorrect).length;
  return {
    rTask,
    isCorrect: passed === goal.subtasks.length,
    metrics: { subtasks: goal.subtasks.length, answered: goal.subtasks.filter((s) => s.result).length, passed },
    evidence,
  };
}

function subAnswerSchemas() {
  return journeyEnvs().map((env) => env.answerSchema.extend({ env: z.literal(env.id), subtask_index: z.int().min(0).optional() }));
}

export const journeyEnv: EnvDefinition<JourneyGoal> = {
  id: 'JOURNEY',
  name: 'Multi-intent journey',
  description: 'Two to five requests in one conversation. Answer each one (done: false moves on); finish with done: true.',
  // Every tool of the atomic environments, plus order.checkout: placing an order only makes
  // sense in a longer journey (in CART the cart itself is the answer).
  get tools() {
    return [...new Set([...journeyEnvs().flatMap((e) => e.tools), 'order.checkout'])];
  },
  get answerSchema() {
    const schemas = subAnswerSchemas();
    const item = schemas.length === 1 ? schemas[0] : z.union(schemas as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
    return z.strictObject({ subtasks: z.array(item).describe('one entry per sub-task answered in this turn, each with its env id') });
  },
  generate,
  confirm: (task, info, ctx) => delegate('confirm', task, info, ctx),
  react: (task, info, ctx) => maybeSwitch(task, info, ctx) ?? delegate('react', task, info, ctx),
  outOfStock(task, ctx, rng) {
    const ids = task.goal.subtasks.flatMap((s) => getEnv(s.envId).outOfStock?.(s.task, ctx, rng.fork(s.envId)) ?? []);
    return [...new Set(ids)];
  },
  onAnswer,
  turnBudget: (task: EnvTask<JourneyGoal>, axes: AxisValues) => axes.T_max * task.goal.subtasks.length,
  subtaskCount: (task) => task.goal.subtasks.length,
  nudges: ['Any progress on that?', 'Can you help with that?', 'What do you think?'],
  verify,
  recommendedIds(answer, ctx, goal) {
    const given = goal.subtasks.filter((s) => s.answer).map((s) => ({ sub: s, answer: s.answer! }));
    const final = ((answer?.subtasks as Answer[] | undefined) ?? []).flatMap((a) => {
      const sub = goal.subtasks.find((s) => s.envId === a.env && s.answer === null);
      return sub ? [{ sub, answer: a }] : [];
    });
    return [...new Set([...given, ...final].flatMap(({ sub, answer: a }) => getEnv(sub.envId).recommendedIds(a, ctx, sub.task.goal)))];
  },
  summarize: (goal, ctx) =>
    goal.subtasks.flatMap((s, i) => [`${i + 1}. ${s.envId}${s.answer ? ` (answered at turn ${s.answeredAtTurn})` : ''}`, ...getEnv(s.envId).summarize(s.task.goal, ctx).map((l) => `   ${l}`)]),
};

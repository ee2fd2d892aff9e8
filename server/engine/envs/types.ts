// What an environment is: a generator, a verifier and the customer's
// env-specific reactions, side by side in one file per environment.

import type { z } from 'zod';
import type { Catalog } from '../catalog/types';
import type { Slot } from '../customer/slots';
import type { AxisValues, envKnobs } from '../difficulty';
import type { Rng } from '../random';
import type { ToolName } from '../tools';
import type { EnvId, TaskResult, ToolResult, UserAct } from '../types';
import type { WorldState } from '../world/state';

export interface EnvContext {
  catalog: Catalog;
  axes: AxisValues;
  d: number;
  knobs: ReturnType<typeof envKnobs>;
  world: WorldState;
  /** JOURNEY: the env ids this episode draws its sub-tasks from (EpisodeConfig.journeyEnvs). */
  journeyEnvs?: readonly EnvId[];
  /** The engine rules the episode plays under (version.ts); absent means the current ones. */
  engineVersion?: number;
}

/**
 * One episode's task. `goal` is the generator's ground truth and never changes; `state` is
 * everything the hooks may change during the episode (what the customer noticed, pending
 * alternatives, JOURNEY's progress), so a verifier reads both and writes neither.
 */
export interface EnvTask<G, S = unknown> {
  goal: G;
  state: S;
  /** The opening message before noise. */
  opening: string;
  slots: Slot[];
}

/** The p_oos draw for one product (or variant) id: a generator seeded from the episode and the id. */
export type StockDraw = (id: string) => Rng;

export interface TurnInfo {
  turn: number;
  agentMessage: string;
  toolResults: ToolResult[];
  cartChanged: boolean;
}

export interface CustomerReply {
  text: string;
  act: UserAct;
  /** Set when the reply changes the hidden goal (e.g. an alternative variant after an item went out of stock); recorded as a world_change event. */
  goalChange?: string;
}

/** One tool call of the episode as the verifier sees it (from the event log). */
export interface CallRecord {
  turn: number;
  name: string;
  args: unknown;
  error: string | null;
}

export interface VerifyContext extends EnvContext {
  /** First turn at which each product id was seen in a tool result. */
  seen: ReadonlyMap<string, number>;
  /** Every tool call so far, refused ones included (RETURN counts a refused return.initiate). */
  calls: readonly CallRecord[];
  /** The turn being scored (the answer's turn). */
  turn: number;
}

export type Answer = Record<string, unknown>;

export interface EnvDefinition<G = unknown, S = unknown> {
  id: EnvId;
  name: string;
  description: string;
  /** When `verify` says isCorrect, in one sentence without a final stop (the replay's "Why it failed" shows it). */
  passRule: string;
  /** Tool names this environment offers (checked against the tool registry). */
  tools: readonly ToolName[];
  /** Answer fields besides `env` and `done` (strict). */
  answerSchema: z.ZodObject;
  /**
   * Optional fast path of the answer check (with env and done): the value the full schema's
   * parse gives when that parse succeeds, or undefined to fall back to the schema (which also
   * words the errors). Never accepts what the schema refuses.
   */
  parseAnswer?(answer: unknown): Answer | undefined;
  generate(ctx: EnvContext, rng: Rng): EnvTask<G, S>;
  /** confirm: the agent presented the right thing. Checked first. May change task.state. */
  confirm?(task: EnvTask<G, S>, info: TurnInfo, ctx: EnvContext): CustomerReply | null;
  /** correct / continue after actions that change the world (cart, returns). May change task.state. */
  respond?(task: EnvTask<G, S>, info: TurnInfo, ctx: EnvContext): CustomerReply | null;
  /**
   * p_oos (SPEC §6), decided per product at first sight: called after every turn with the ids
   * first seen in it. Returns the stock ids (product or variant ids) that go out of stock now:
   * those the goal rewards for which `draw(id)` hits with probability ctx.axes.p_oos, never so
   * many that the task becomes unsolvable. The episode sets their stock to 0 and records the
   * change (world.stockChanges). May change task.state (CART's pending alternatives).
   */
  outOfStock?(task: EnvTask<G, S>, firstSeen: readonly string[], ctx: VerifyContext, draw: StockDraw): string[];
  /**
   * p_oos on what the goal does not reward (SPEC §6 rev 3, engine v3 on): for a first-seen product,
   * null when the goal would reward it (outOfStock decides those), else how a stock-out strikes
   * it — its own stock ('product') or one in-stock variant ('variant', as CART strikes its
   * targets) — at the goal items' rate, so a stock change says nothing about the goal.
   */
  otherStock?(task: EnvTask<G, S>, productId: string, ctx: VerifyContext): 'product' | 'variant' | null;
  /** An answer with done: false (JOURNEY answers the current sub-task); the customer's reply, or null for the default reply rules. */
  onAnswer?(task: EnvTask<G, S>, answer: Answer, info: TurnInfo, ctx: VerifyContext): CustomerReply | null;
  /** Sub-tasks in the episode (n_sub of T_ref = 4·n_sub); 1 when absent. */
  subtaskCount?(task: EnvTask<G, S>): number;
  /** The episode's turn budget when it differs from T_max (JOURNEY: T_max per sub-task). */
  turnBudget?(task: EnvTask<G, S>, axes: AxisValues): number;
  /** How the customer nudges when nothing else applies (continue). */
  nudges: readonly string[];
  /** A pure function: the same inputs give the same result, and nothing is changed. */
  verify(goal: G, state: S, answer: Answer | null, ctx: VerifyContext): TaskResult;
  /** JOURNEY: the verifier applies the invention rule (SPEC §8 rev 3) to each sub-answer itself. */
  scoresInventionPerSubtask?: true;
  /** Product ids the answer recommends (for the hallucination and safety checks). */
  recommendedIds(answer: Answer | null, ctx: EnvContext, goal: G, state: S): string[];
  /** Plain-language lines describing the hidden goal, for the inspector. */
  summarize(goal: G, ctx: EnvContext, state: S): string[];
}

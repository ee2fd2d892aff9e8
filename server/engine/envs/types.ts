// What an environment is: a generator, a verifier and the customer's
// env-specific reactions, side by side in one file per environment.

import type { z } from 'zod';
import type { Catalog } from '../catalog/types';
import type { Slot } from '../customer/slots';
import type { AxisValues, envKnobs } from '../difficulty';
import type { Rng } from '../random';
import type { EnvId, TaskResult, ToolResult, UserAct } from '../types';
import type { WorldState } from '../world/state';

export interface EnvContext {
  catalog: Catalog;
  axes: AxisValues;
  d: number;
  knobs: ReturnType<typeof envKnobs>;
  world: WorldState;
}

export interface EnvTask<G> {
  goal: G;
  /** The opening message before noise. */
  opening: string;
  slots: Slot[];
}

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

export interface EnvDefinition<G = unknown> {
  id: EnvId;
  name: string;
  description: string;
  /** Tool names this environment offers. */
  tools: readonly string[];
  /** Answer fields besides `env` and `done` (strict). */
  answerSchema: z.ZodObject;
  generate(ctx: EnvContext, rng: Rng): EnvTask<G>;
  /** confirm: the agent presented the right thing. Checked first. */
  confirm?(task: EnvTask<G>, info: TurnInfo, ctx: EnvContext): CustomerReply | null;
  /** correct / continue after actions that change the world (cart, returns). */
  react?(task: EnvTask<G>, info: TurnInfo, ctx: EnvContext): CustomerReply | null;
  /**
   * p_oos (SPEC §6): called once, after the agent's first successful retrieval. Returns the
   * stock ids (product or variant ids) that go out of stock now, chosen with probability
   * ctx.axes.p_oos among things the goal rewards and the agent has seen, never so many that
   * the task becomes unsolvable. The episode sets their stock to 0 and records the change.
   */
  outOfStock?(task: EnvTask<G>, ctx: VerifyContext, rng: Rng): string[];
  /** An answer with done: false (JOURNEY answers the current sub-task); the customer's reply, or null for the default policy. */
  onAnswer?(task: EnvTask<G>, answer: Answer, info: TurnInfo, ctx: VerifyContext): CustomerReply | null;
  /** Sub-tasks in the episode (n_sub of T_ref = 4·n_sub); 1 when absent. */
  subtaskCount?(task: EnvTask<G>): number;
  /** The episode's turn budget when it differs from T_max (JOURNEY: T_max per sub-task). */
  turnBudget?(task: EnvTask<G>, axes: AxisValues): number;
  /** How the customer nudges when nothing else applies (continue). */
  nudges: readonly string[];
  verify(goal: G, answer: Answer | null, ctx: VerifyContext): TaskResult;
  /** Product ids the answer recommends (for the hallucination and safety checks). */
  recommendedIds(answer: Answer | null, ctx: EnvContext, goal: G): string[];
  /** Plain-language lines describing the hidden goal, for the inspector. */
  summarize(goal: G, ctx: EnvContext): string[];
}

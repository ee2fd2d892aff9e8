// The episode state machine (SPEC §1): reset → step … → termination, with the
// event log as the single record of what happened.

import { parseAction } from './action';
import { checkAnswer } from './answer-check';
import type { Catalog } from './catalog/types';
import { customerReply, type CustomerMemory } from './customer/reply-rules';
import { applyNoise } from './customer/noise';
import { axesFor, envKnobs, type AxisValues } from './difficulty';
import { getEnv } from './envs/registry';
import type { Answer, CallRecord, EnvContext, EnvDefinition, EnvTask, VerifyContext } from './envs/types';
import { Rng } from './random';
import { deepFreeze, frozenCopy, plainCopy } from './copy';
import { recordedConfig, rulesOf, streamKeyOf } from './episode-config';
import { frozenBreakdown, observation } from './episode-output';
import { runCall, type CallScope } from './episode-tools';
import { namesDeniedProduct, productsBought } from './episode-safety';
import { capInvention, computeReward } from './reward';
import { getTool } from './tools';
import { toolSpec } from './tools/registry';
import { viewCart } from './tools/cart-tools';
import { customerRecords } from './world/orders';
import { currentVariants, stockFor, stockOfId } from './world/stock';
import { REV3_RULES } from './version';
import { cartContents, cartHolds, createWorld, dateFromUnit, type WorldState } from './world/state';
import {
  type EpisodeConfig,
  type EpisodeEvent,
  type Observation,
  type RewardBreakdown,
  type StepResult,
  type TaskResult,
  type TerminationReason,
  type ToolResult,
  type ToolSpec,
  type UserAct,
} from './types';

export class Episode {
  readonly config: EpisodeConfig;
  readonly axes: AxisValues;
  readonly catalogId: string;
  /** The engine rules this episode plays under (its config's engineVersion, else the current). */
  readonly engineVersion: number;
  turn = 0;
  done = false;
  termination: TerminationReason | null = null;
  breakdown: RewardBreakdown | null = null;

  private readonly env: EnvDefinition<unknown>;
  private readonly ctx: EnvContext;
  private readonly state: WorldState;
  private readonly streamKey: string;
  private readonly customerRng: Rng;
  private readonly noiseRng: Rng;
  private readonly tools: ToolSpec[];
  private readonly scope: CallScope;
  private readonly eventLog: EpisodeEvent[] = [];
  private readonly seen = new Map<string, number>();
  /** Ids first seen in the current turn, in the order seen (for p_oos). */
  private seenThisTurn: string[] = [];
  private readonly replyActs: Array<UserAct | null> = [];
  /** Per turn: whether it made at least one successful tool call (SPEC §8, revision 2). */
  private readonly workedTurns: boolean[] = [];
  private readonly calls: CallRecord[] = [];
  private readonly memory: CustomerMemory = { idleTurns: 0 };
  private task: EnvTask<unknown> | null = null;
  private answer: Answer | null = null;
  /** Every answer given (JOURNEY's done: false sub-answers too), for the safety check. */
  private readonly answersGiven: Answer[] = [];
  private answerTurn = 0;
  private lastVerifyContext: VerifyContext | null = null;
  private started = false;
  /** Turn budget: T_max, unless the environment scales it (JOURNEY). */
  tMax: number;

  constructor(
    config: EpisodeConfig,
    private readonly catalog: Catalog,
  ) {
    this.env = getEnv(config.envId);
    this.config = recordedConfig(config);
    this.engineVersion = rulesOf(this.config);
    this.axes = Object.freeze(axesFor(config.d, config.axisOverrides, this.engineVersion));
    this.catalogId = catalog.id;
    this.streamKey = streamKeyOf(config);
    this.state = createWorld(dateFromUnit(Rng.from('today', config.seed).next()));
    this.ctx = {
      catalog,
      axes: this.axes,
      d: config.d,
      knobs: envKnobs(config.d),
      world: this.state,
      journeyEnvs: this.config.journeyEnvs,
      engineVersion: this.engineVersion,
    };
    this.customerRng = Rng.from('customer', this.streamKey);
    this.noiseRng = Rng.from('noise', this.streamKey);
    this.tools = this.env.tools.map((name) => toolSpec(getTool(name)));
    this.scope = {
      env: this.env,
      catalog,
      world: this.state,
      axes: this.axes,
      streamKey: this.streamKey,
      engineVersion: this.engineVersion,
    };
    this.tMax = this.axes.T_max;
  }

  reset(): StepResult {
    if (this.started) throw new Error('reset() was already called on this episode');
    this.started = true;
    this.task = this.env.generate(this.ctx, Rng.from('task', this.streamKey));
    this.tMax = this.env.turnBudget?.(this.task, this.axes) ?? this.axes.T_max;
    const text = applyNoise(this.task.opening, this.axes.p_noise, this.noiseRng);
    const event = this.logFlat<EpisodeEvent>({ kind: 'customer_message', turn: 0, text, act: 'opening' });
    return {
      observation: this.observe(text, []),
      reward: 0,
      done: false,
      events: [event],
      termination: null,
      breakdown: null,
    };
  }

  /**
   * One agent turn. Takes anything: text, an action object, or any other value. What is not a
   * usable action becomes a recorded format_invalid with one precise message (never a throw).
   * Only misuse of the episode itself (step before reset, after the end) is refused, before
   * the turn advances.
   */
  step(input: unknown): StepResult {
    if (!this.started) throw new Error('call reset() before step()');
    if (this.done) throw new Error(`the episode is over (${this.termination})`);
    const parsed = parseAction(input);
    const from = this.eventLog.length;
    const turn = ++this.turn;
    if (!parsed.ok) {
      this.logFlat({ kind: 'action_error', turn, error: parsed.error, raw: parsed.raw });
      return this.finish('format_invalid', from, parsed.error);
    }
    // parsed.raw is read only on an answer error: a structured action builds its text on first read
    const { action } = parsed;
    this.logFlat({ kind: 'agent_message', turn, text: action.assistant_message });

    const cartBefore = cartContents(this.state.cart);
    const results = action.tool_calls.map((call, index) => this.runTool(call, index, turn));
    const toolFailed = results.some((r) => r.error !== null);
    this.workedTurns[turn - 1] = results.some((r) => r.error === null);
    this.applyOutOfStock(turn);

    if (action.answer) {
      const checked = checkAnswer(this.env, action.answer);
      if (typeof checked === 'string') {
        this.logFlat({ kind: 'action_error', turn, error: checked, raw: parsed.raw });
        return this.finish('format_invalid', from, checked, results);
      }
      // Only a final answer is scored in an atomic environment; JOURNEY records each sub-answer
      // (done: false answers the current request) and scores what it recorded.
      this.answersGiven.push(checked);
      if (action.answer.done || this.env.onAnswer) {
        this.answer = checked;
        this.answerTurn = turn;
      }
      this.log({ kind: 'answer', turn, answer: action.answer });
      if (action.answer.done) return this.finish(toolFailed ? 'tool_invalid' : 'answered', from, undefined, results);
    }

    // SPEC §1: a tool error in the turn that ends the episode makes the reward −1, whatever ended it.
    if (turn >= this.tMax) {
      this.replyActs.push(null);
      return this.finish(toolFailed ? 'tool_invalid' : 'turn_budget', from, undefined, results);
    }

    const info = {
      turn,
      agentMessage: action.assistant_message,
      toolResults: results,
      cartChanged: !cartHolds(this.state.cart, cartBefore),
      answered: action.answer !== null,
    };
    const reply =
      (action.answer && this.env.onAnswer?.(this.task!, this.answer!, info, this.verifyContext(turn))) ||
      customerReply(this.env, this.task!, info, this.ctx, this.memory, this.customerRng);
    if (reply.goalChange)
      this.log({ kind: 'world_change', turn, description: reply.goalChange, data: { hidden: true } });
    const text = applyNoise(reply.text, this.axes.p_noise, this.noiseRng);
    this.replyActs.push(reply.act);
    this.logFlat({ kind: 'customer_message', turn, text, act: reply.act });
    if (reply.act === 'ragequit')
      return this.finish(toolFailed ? 'tool_invalid' : 'user_quit', from, undefined, results);
    return {
      observation: this.observe(text, results),
      reward: 0,
      done: false,
      events: this.eventLog.slice(from),
      termination: null,
      breakdown: null,
    };
  }

  /** The event log so far: a new list on every read; the events themselves are frozen. */
  get events(): EpisodeEvent[] {
    return this.eventLog.slice();
  }

  /** For the inspector and the oracle only. Never part of an observation. */
  hiddenGoal(): { envId: string; summary: string[]; data: unknown; state: unknown; slots: unknown } {
    if (!this.task) throw new Error('call reset() first');
    const { goal, state, slots } = this.task;
    // Live objects, not copies: inspectors and tests watch the slots being revealed. The summary
    // may be a kept (frozen) list (envs/shared/summary-cache.ts): the caller gets its own copy,
    // by a spread (slice() of a frozen list takes a slow path in node 20: 1.8 µs against 0.09).
    const summary = [...this.env.summarize(goal, this.ctx, state)];
    return { envId: this.env.id, summary, data: goal, state, slots };
  }

  /**
   * The task score of the answer held now (null without one). The verifier is pure, so this can
   * be run again at any time and gives the breakdown's task result once the episode is over.
   */
  scoreTask(): TaskResult | null {
    if (!this.task || this.answer === null) return null;
    const { goal, state } = this.task;
    const ctx = this.verifyContext(this.answerTurn || this.turn);
    const result = this.env.verify(goal, state, this.answer, ctx);
    // SPEC §8 rev 3: an answer naming a never-retrieved id earns at most 0 (JOURNEY: per sub-answer)
    if (this.env.scoresInventionPerSubtask) return result;
    return capInvention(result, this.env.recommendedIds(this.answer, this.ctx, goal, state), this.seen, ctx.turn);
  }

  /** The agent-visible world, for display. */
  world(): { today: string; cart: ReturnType<typeof viewCart>; visitHistory: string[] } & ReturnType<
    typeof customerRecords
  > {
    return {
      today: this.state.today,
      cart: viewCart(this.state, this.catalog),
      visitHistory: [...this.state.visitHistory],
      ...customerRecords(this.state),
    };
  }

  /** Stock as the tools would show it now (agent-visible). */
  stockOf(productId: string, variantId: string | null): number | undefined {
    return stockFor(this.state, this.catalog, productId, variantId);
  }

  /** A catalog product by id (for the built-in agents: what the catalog tools would show). */
  catalogProduct(productId: string) {
    return this.catalog.get(productId);
  }

  get seenIds(): ReadonlyMap<string, number> {
    return new Map(this.seen);
  }

  toolSpecs(): ToolSpec[] {
    return plainCopy(this.tools);
  }

  // ---------- internals ----------

  /** Appends a frozen copy of the event: the log is a record nothing handed out can change. */
  private log<E extends EpisodeEvent>(event: E): E {
    const frozen = frozenCopy(event);
    this.eventLog.push(frozen);
    return frozen;
  }

  /** log() of an event built here whose fields are all primitives: frozen as it is, no copy. */
  private logFlat<E extends EpisodeEvent>(event: E): E {
    Object.freeze(event);
    this.eventLog.push(event);
    return event;
  }

  /** Runs one call (episode-tools.ts) and records it: the log, the calls, the ids it showed. */
  private runTool(call: unknown, index: number, turn: number): ToolResult {
    const { name, args, result, error, fresh, seen } = runCall(this.scope, call, index, turn);
    for (const id of seen)
      if (!this.seen.has(id)) {
        this.seen.set(id, turn);
        this.seenThisTurn.push(id);
      }
    // Copied at most once (docs/engine.md, "Copies"): the arguments come from this turn's parsed
    // action, a fresh copy of the agent's input that nothing else holds (action.ts), and a
    // freshResult tool's result is new and held by nothing else, so both are frozen as they are;
    // only a result that shows catalog objects is copied. The log, the customer and the
    // observation then share these frozen values.
    const event = Object.freeze({
      kind: 'tool_call' as const,
      turn,
      index,
      name,
      args: deepFreeze(args),
      result: fresh ? deepFreeze(result) : frozenCopy(result),
      error,
    });
    this.eventLog.push(event);
    this.calls.push({ turn, name, args: event.args, error });
    return { name, args: event.args, result: event.result, error };
  }

  /**
   * p_oos at first sight (SPEC §6): the env decides for each id first seen this turn; from engine
   * v3 the products its goal would not reward go out at the same rate (otherStock).
   */
  private applyOutOfStock(turn: number) {
    const firstSeen = this.seenThisTurn;
    this.seenThisTurn = [];
    if (!this.env.outOfStock || firstSeen.length === 0) return;
    const draw = (id: string) => Rng.from('oos', this.streamKey, id);
    const ctx = this.verifyContext(turn);
    for (const id of this.env.outOfStock(this.task!, firstSeen, ctx, draw)) this.strike(id, turn);
    if (this.engineVersion < REV3_RULES || !this.env.otherStock) return;
    for (const id of firstSeen) {
      const how = this.env.otherStock(this.task!, id, ctx);
      const product = how && this.catalog.get(id);
      if (!product) continue;
      const rng = draw(id);
      if (!rng.bernoulli(this.axes.p_oos)) continue;
      const variants = how === 'variant' ? currentVariants(this.state, product).filter((v) => v.stock_qty > 0) : [];
      const stockId = variants.length > 0 ? rng.pick(variants).variant_id : id;
      if (!this.state.protectedStock.has(stockId)) this.strike(stockId, turn);
    }
  }

  /** Sets a product's or variant's stock to 0 and records the change (nothing when already out). */
  private strike(id: string, turn: number) {
    const before = stockOfId(this.state, this.catalog, id);
    if (before <= 0) return;
    this.state.stockOverrides.set(id, 0);
    this.state.stockChanges.push({ id, turn, before });
    this.log({
      kind: 'world_change',
      turn,
      description: `${id} went out of stock`,
      data: { stockId: id, stockBefore: before, stockAfter: 0 },
    });
  }

  /**
   * The verifier's view at a turn: seen and calls are live, so one object per turn serves every
   * hook. Written out rather than spread: `{ ...ctx, more }` takes V8's slow path (~10 µs).
   */
  private verifyContext(turn: number): VerifyContext {
    if (this.lastVerifyContext?.turn !== turn) {
      const { catalog, axes, d, knobs, world, journeyEnvs, engineVersion } = this.ctx;
      this.lastVerifyContext = {
        catalog,
        axes,
        d,
        knobs,
        world,
        journeyEnvs,
        engineVersion,
        seen: this.seen,
        calls: this.calls,
        turn,
      };
    }
    return this.lastVerifyContext;
  }

  private finish(reason: TerminationReason, from: number, error?: string, results: ToolResult[] = []): StepResult {
    const recommended = this.task
      ? this.env.recommendedIds(this.answer, this.ctx, this.task.goal, this.task.state)
      : [];
    // Safety, whatever ended the episode: every answer given (JOURNEY's sub-answers with done:
    // false too) and every product id it names (not only the scored ones), every product put in
    // the cart (even if removed later) and every product of an order the agent placed.
    if (
      reason !== 'format_invalid' &&
      namesDeniedProduct(this.catalog, [...this.answersGiven, recommended, ...productsBought(this.state)])
    )
      reason = 'safety_violation';
    const hardFail =
      reason === 'format_invalid' || reason === 'tool_invalid' || reason === 'safety_violation' ? reason : null;
    while (this.replyActs.length < this.turn) this.replyActs.push(null);
    const task = this.scoreTask();
    this.breakdown = computeReward({
      hardFail,
      task,
      turns: this.turn,
      replyActs: this.replyActs,
      workedTurns: this.workedTurns,
      tMax: this.tMax,
      nSub: this.env.subtaskCount?.(this.task!) ?? 1,
      recommendedIds: recommended,
      seen: this.seen,
      weights: this.config.weights!,
      answerTurn: this.answerTurn || this.turn,
    });
    this.done = true;
    this.termination = reason;
    this.logFlat({ kind: 'termination', turn: this.turn, reason });
    this.breakdown = frozenBreakdown(this.breakdown);
    this.eventLog.push(Object.freeze({ kind: 'reward', turn: this.turn, breakdown: this.breakdown }));
    return {
      observation: this.observe(null, results, error),
      reward: this.breakdown.total,
      done: true,
      events: this.eventLog.slice(from),
      termination: reason,
      breakdown: this.breakdown,
    };
  }

  private observe(customerMessage: string | null, toolResults: ToolResult[], error?: string): Observation {
    const budgets = { T_max: this.tMax, B_tool: this.axes.B_tool };
    return observation(this.env.id, this.turn, customerMessage, toolResults, this.tools, budgets, this.done, error);
  }
}

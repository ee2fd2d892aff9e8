// The random agent (SPEC §11): valid but aimless. Each turn it calls random
// tools from the observation's list with arguments sampled from their JSON
// Schemas (ids drawn from ids seen in earlier results, or made up), and at one
// random turn it gives a random answer sampled from the env's answer schema.
// All randomness comes from the agent's seed and the episode's config, so a run
// is reproducible; its mean reward must stay below 0 (the verifiers cannot be
// gamed by noise).

import type { Episode } from '../episode';
import { listEnvs } from '../envs/registry';
import { Rng } from '../random';
import type { Action, Observation, ToolCall } from '../types';
import { asJsonSchema, type JsonSchema } from './json-schema';
import type { Agent } from './types';

type Schema = JsonSchema;

export interface RandomAgentOptions {
  seed?: number;
  /** Chance that a tool call is deliberately broken (unknown tool or bad argument); 0 for the plain random agent. */
  pInvalid?: number;
  /** Chance per turn of an answer with done: false (JOURNEY sub-answers), besides the one final answer. */
  pPartialAnswer?: number;
}

interface Memory {
  rng: Rng;
  /** The agent turn (1-based) at which it answers with done: true. */
  answerTurn: number;
  /** Ids seen in tool results, by field name (product_id, line_id, order_id, …). */
  ids: Map<string, Set<string>>;
  words: string[];
}

const MESSAGES = [
  'Let me look into that.',
  'Checking a few things for you.',
  'One moment please.',
  'Here is what I found.',
  'Could you tell me more?',
  'I am working on it.',
  'Let me try something else.',
];

let answerSchemas: Map<string, Schema> | null = null;
function answerSchemaOf(envId: string): Schema {
  answerSchemas ??= new Map(listEnvs().map((e) => [e.id, asJsonSchema(e.answerSchema)]));
  return answerSchemas.get(envId) ?? { type: 'object', properties: {} };
}

/** Collects string ids under *_id keys (and *_ids lists) anywhere in a tool result. */
export function collectIds(value: unknown, into: Map<string, Set<string>>, key = ''): void {
  if (Array.isArray(value)) {
    const single = key.endsWith('_ids') ? key.slice(0, -1) : key;
    for (const v of value) collectIds(v, into, single);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collectIds(v, into, k);
    return;
  }
  if (typeof value === 'string' && key.endsWith('_id') && value !== '') {
    // "new_product_id" also feeds the product_id pool
    for (const k of new Set([key, shortIdKey(key)])) {
      if (!into.has(k)) into.set(k, new Set());
      into.get(k)!.add(value);
    }
  }
}

const idKey = (key: string) => (key.endsWith('_ids') ? key.slice(0, -1) : key);
const shortIdKey = (key: string) => key.split('_').slice(-2).join('_');

/** A value that satisfies a JSON Schema (as produced by zod's toJSONSchema), biased towards plausible values. */
export function sampleFromSchema(schema: Schema, key: string, mem: Memory): unknown {
  const rng = mem.rng;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  if (Array.isArray(schema.anyOf)) return sampleFromSchema(rng.pick(schema.anyOf), key, mem);
  if (Array.isArray(schema.oneOf)) return sampleFromSchema(rng.pick(schema.oneOf), key, mem);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [name, sub] of Object.entries<Schema>(schema.properties ?? {}))
        if (required.has(name) || rng.bernoulli(0.3)) out[name] = sampleFromSchema(sub, name, mem);
      return out;
    }
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? min + 4, min + 4);
      const n = rng.int(min, Math.max(min, max));
      return Array.from({ length: n }, () => sampleFromSchema(schema.items ?? {}, idKey(key), mem));
    }
    case 'string':
      return sampleString(schema, key, mem);
    case 'integer':
    case 'number': {
      const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const span = key.includes('price') || key.includes('total') ? 200 : key === 'days' ? 90 : 10;
      const hi = Math.min(schema.maximum ?? lo + span, lo + span);
      return schema.type === 'integer'
        ? rng.int(Math.ceil(lo), Math.floor(hi))
        : Math.round(rng.uniform(lo, hi) * 100) / 100;
    }
    case 'boolean':
      return rng.bernoulli(0.5);
    case 'null':
      return null;
    default:
      return rng.bernoulli(0.5) ? rng.pick(mem.words) : rng.int(0, 10);
  }
}

function sampleString(schema: Schema, key: string, mem: Memory): string {
  const rng = mem.rng;
  const pool = mem.ids.get(idKey(key)) ?? mem.ids.get(shortIdKey(idKey(key)));
  if (key.endsWith('_id') || key.endsWith('_ids')) {
    if (pool && pool.size > 0 && rng.bernoulli(0.85)) return rng.pick([...pool]);
    return `${idKey(key).replace(/_id$/, '')}_${rng.int(0, 99_999)}`;
  }
  const n = key === 'query' ? rng.int(1, 3) : 1;
  const text = Array.from({ length: n }, () => rng.pick(mem.words)).join(' ');
  return text.length >= (schema.minLength ?? 0) ? text : text.padEnd(schema.minLength ?? 0, 'x');
}

function randomCall(tools: Observation['tools'], mem: Memory, pInvalid: number): ToolCall {
  const rng = mem.rng;
  if (rng.bernoulli(pInvalid)) {
    // deliberately broken: an unknown tool, or a known one with a misspelt argument
    if (rng.bernoulli(0.5)) return { name: `tool.${rng.pick(mem.words)}`, args: {} };
    const tool = rng.pick(tools);
    return {
      name: tool.name,
      args: {
        ...(sampleFromSchema(asJsonSchema(tool.parameters), '', mem) as object),
        [`${rng.pick(mem.words)}_x`]: 1,
      },
    };
  }
  const tool = rng.pick(tools);
  return { name: tool.name, args: sampleFromSchema(asJsonSchema(tool.parameters), '', mem) as Record<string, unknown> };
}

function randomAnswer(envId: string, done: boolean, mem: Memory): NonNullable<Action['answer']> {
  const fields = sampleFromSchema(answerSchemaOf(envId), '', mem) as Record<string, unknown>;
  return { ...fields, env: envId, done };
}

export function createRandomAgent(options: RandomAgentOptions | number = {}): Agent {
  const { seed = 0, pInvalid = 0, pPartialAnswer = 0.1 } = typeof options === 'number' ? { seed: options } : options;
  const memories = new WeakMap<Episode, Memory>();
  return {
    name: 'random',
    act(observation, episode) {
      let mem = memories.get(episode);
      if (!mem) {
        // the episode's public config (not its goal) keys the stream, so each episode differs but replays
        const { envId, d, seed: episodeSeed } = episode.config;
        const rng = Rng.from('random-agent', seed, envId, d, episodeSeed);
        mem = {
          rng,
          answerTurn: rng.int(1, observation.budgets.T_max),
          ids: new Map(),
          words: ['item', 'order', 'help'],
        };
        memories.set(episode, mem);
      }
      for (const r of observation.toolResults) collectIds(r.result, mem.ids);
      if (observation.customerMessage)
        mem.words.push(...(observation.customerMessage.toLowerCase().match(/[a-z]{3,}/g) ?? []));
      const rng = mem.rng;
      const turn = observation.turn + 1;
      const final = turn >= mem.answerTurn;
      // the final turn calls nothing: a failing call there would make it a tool_invalid (−1) rather than a scored answer
      const count = final ? 0 : rng.int(0, observation.budgets.B_tool);
      const calls = Array.from({ length: count }, () => randomCall(observation.tools, mem!, pInvalid));
      const answer = final
        ? randomAnswer(observation.envId, true, mem)
        : rng.bernoulli(pPartialAnswer)
          ? randomAnswer(observation.envId, false, mem)
          : null;
      return { assistant_message: rng.pick(MESSAGES), tool_calls: calls, answer };
    },
  };
}

/** The random agent with seed 0. */
export const randomAgent: Agent = createRandomAgent(0);

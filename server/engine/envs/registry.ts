// The environments the engine can run, keyed by id. The key type is EnvId, so ENV_IDS
// (types.ts) and this registry cannot drift: the compiler rejects a missing or extra env.
// JOURNEY is built here from the atomic envs it draws from (no import back from journey.ts).

import { z } from 'zod';
import { getTool } from '../tools';
import { toolSpec } from '../tools/registry';
import { frozenCopy, plainCopy } from '../copy';
import { ENV_IDS, type AtomicEnvId, type EnvId, type ToolSpec } from '../types';
import { bundleEnv } from './bundle';
import { cartEnv } from './cart';
import { createJourneyEnv } from './journey';
import { pdEnv } from './pd';
import { policyEnv } from './policy';
import { returnEnv } from './return';
import { statusEnv } from './status';
import { subEnv } from './sub';
import type { EnvDefinition } from './types';

/** Every env but JOURNEY, in the order JOURNEY samples them (the order is part of its seeds). */
export const ATOMIC_ENVS = [pdEnv, subEnv, cartEnv, returnEnv, statusEnv, policyEnv, bundleEnv] as const;

/** The envs a JOURNEY episode draws from unless its config recorded another set (see EpisodeConfig.journeyEnvs). */
export const JOURNEY_ENV_IDS: readonly AtomicEnvId[] = ATOMIC_ENVS.map((env) => env.id as AtomicEnvId);

// Each env's goal type differs; the registry holds them behind one interface (EnvDefinition<unknown>).
const REGISTRY: { readonly [K in EnvId]: EnvDefinition<unknown> } = {
  PD: pdEnv,
  SUB: subEnv,
  CART: cartEnv,
  RETURN: returnEnv,
  STATUS: statusEnv,
  POLICY: policyEnv,
  BUNDLE: bundleEnv,
  JOURNEY: createJourneyEnv(ATOMIC_ENVS),
};

export function isAvailableEnv(id: string): id is EnvId {
  return Object.hasOwn(REGISTRY, id);
}

export function getEnv(id: string): EnvDefinition<unknown> {
  if (!isAvailableEnv(id)) throw new Error(`unknown environment "${id}"; available: ${ENV_IDS.join(', ')}`);
  return REGISTRY[id];
}

export function availableEnvs(): ReadonlyArray<EnvDefinition<unknown>> {
  return ENV_IDS.map((id) => getEnv(id));
}

export interface EnvInfo {
  id: EnvId;
  name: string;
  description: string;
  /** When an episode passes: the env's rule plus the reward's own condition (reward.ts: r_hall = 0). */
  passRule: string;
  /** An answer sent with done: false is kept and scored (the env has onAnswer: JOURNEY answers one request and goes on); elsewhere only the final answer counts. */
  keepsGoOnAnswers: boolean;
  /** JSON Schema of the answer fields besides env and done. */
  answerSchema: Record<string, unknown>;
  tools: string[];
}

const answerSchemaCache = new WeakMap<EnvDefinition, Record<string, unknown>>();

/** The answer's JSON Schema, derived once per env (zod's export cost ~1 ms per env on every list). */
function answerJsonSchema(env: EnvDefinition): Record<string, unknown> {
  let schema = answerSchemaCache.get(env);
  if (!schema) {
    const raw = z.toJSONSchema(env.answerSchema, { io: 'input' }) as Record<string, unknown>;
    delete raw.$schema;
    schema = frozenCopy(raw);
    answerSchemaCache.set(env, schema);
  }
  return schema;
}

export function listEnvs(): EnvInfo[] {
  return availableEnvs().map((env) => ({
    id: env.id,
    name: env.name,
    description: env.description,
    passRule: `${env.passRule}, and no recommended id the agent never retrieved (r_hall = 0)`,
    keepsGoOnAnswers: env.onAnswer !== undefined,
    // a copy: callers own what they get
    answerSchema: plainCopy(answerJsonSchema(env)),
    tools: [...env.tools],
  }));
}

export function toolSpecsFor(envId: string): ToolSpec[] {
  return getEnv(envId).tools.map((name) => plainCopy(toolSpec(getTool(name))));
}

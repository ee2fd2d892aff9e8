// The environments the engine can run, by id.

import type { EnvId } from '../types';
import { bundleEnv } from './bundle';
import { cartEnv } from './cart';
import { journeyEnv } from './journey';
import { pdEnv } from './pd';
import { policyEnv } from './policy';
import { returnEnv } from './return';
import { statusEnv } from './status';
import { subEnv } from './sub';
import type { EnvDefinition } from './types';

const ENVS: ReadonlyArray<EnvDefinition<any>> = [pdEnv, subEnv, cartEnv, returnEnv, statusEnv, policyEnv, bundleEnv, journeyEnv];

export function getEnv(id: string): EnvDefinition<unknown> {
  const env = ENVS.find((e) => e.id === id);
  if (!env) throw new Error(`unknown environment "${id}"; available: ${ENVS.map((e) => e.id).join(', ')}`);
  return env;
}

export function availableEnvs(): ReadonlyArray<EnvDefinition<unknown>> {
  return ENVS;
}

export function isAvailableEnv(id: string): id is EnvId {
  return ENVS.some((e) => e.id === id);
}

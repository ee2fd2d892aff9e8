// The wire shapes, as zod schemas. Requests are validated with them; /schema publishes their
// JSON Schemas. The action schema is built from the engine's own zod schemas (each tool's
// argument schema, each environment's answer schema), so it cannot drift from what the engine
// accepts.

import { z } from 'zod';
import { availableEnvs, getEnv } from '@/server/engine/envs/registry';
import { getTool } from '@/server/engine/tools';
import { MAX_SEED, axisOverridesSchema, idSchema, stepKeySchema } from '@/server/episodes/inputs';

const envIds = availableEnvs().map((e) => e.id) as [string, ...string[]];

export const resetRequestSchema = z.strictObject({
  env: z.enum(envIds).default('PD').describe('environment id'),
  d: z.int().min(0).max(100).default(0).describe('difficulty'),
  seed: z.int().min(0).max(MAX_SEED).optional().describe('task seed; a random one is chosen (and echoed) when absent'),
  episode_id: idSchema.optional().describe('your own id for the episode; generated when absent'),
  run: z.string().min(1).max(100).optional().describe('training run or trainer name, recorded with the episode'),
  train_step: z.int().min(0).optional().describe('the trainer’s step for this rollout, recorded with the episode'),
  group: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'rollout group: rollouts sharing (run, group) form one GRPO group; default (run, train_step, env, d, seed)',
    ),
  axis_overrides: axisOverridesSchema
    .optional()
    .describe('simulation mode only: override single difficulty axes (each within the engine’s range)'),
});
export type ResetRequest = z.output<typeof resetRequestSchema>;

/** An action: a structured object, or the model's raw text (parsed by the engine; bad text is the agent's mistake). */
export const wireActionSchema = z.union([z.string(), z.record(z.string(), z.unknown())], {
  error: 'must be a JSON object or a string of model text',
});

export const stepRequestSchema = z.strictObject({
  episode_id: idSchema,
  action: wireActionSchema,
  token: z.string().optional().describe('capability token, when not sent as "Authorization: Bearer …"'),
  step_key: stepKeySchema
    .optional()
    .describe('idempotency key: a retry with the same key (on any worker) gets the stored result, not a second step'),
});

export const toolResultSchema = z.strictObject({
  name: z.string(),
  args: z.unknown(),
  result: z.unknown(),
  error: z.string().nullable(),
});

export const observationSchema = z.strictObject({
  envId: z.enum(envIds),
  turn: z.int().min(0),
  customerMessage: z.string().nullable().describe('the customer’s latest message; null after the final turn'),
  toolResults: z.array(toolResultSchema).describe('results of the previous turn’s tool calls, in order'),
  tools: z
    .array(z.strictObject({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) }))
    .optional()
    .describe('the episode’s tools: in the reset’s answer only (they do not change within an episode)'),
  budgets: z.strictObject({ T_max: z.int(), B_tool: z.int() }),
  done: z.boolean(),
  error: z.string().optional().describe('why the previous action could not be used'),
});

export const rewardPartsSchema = z.strictObject({
  r_task: z.number(),
  r_eff: z.number(),
  r_hall: z.number(),
  is_correct: z.boolean(),
});

export const agentStateSchema = z.strictObject({
  episode_id: z.string(),
  step_count: z.int(),
  env: z.string(),
  d: z.int(),
  seed: z.int().optional().describe('simulation mode only; production mode keeps the seed'),
  run: z.string().nullable(),
  turn: z.int(),
  t_max: z.int(),
  done: z.boolean(),
  termination: z.string().nullable(),
  reward: z.number().nullable(),
});

/** Ours, in OpenEnv's observation `metadata` (openenv-wire.ts). */
export const wireMetadataSchema = z.strictObject({
  episode_id: z.string(),
  token: z.string().optional().describe('reset only: the capability token for step, state and MCP'),
  env: z.string().optional().describe('reset only'),
  d: z.int().optional().describe('reset only'),
  seed: z.int().optional().describe('reset in simulation mode only'),
  run: z.string().nullable().optional().describe('reset only'),
  train_step: z.int().optional().describe('reset only, when sent'),
  group: z.string().optional().describe('reset only, when sent'),
  termination: z.string().nullable(),
  reward_parts: rewardPartsSchema
    .nullable()
    .describe('the reward’s parts once done (numbers only; evidence is inspector-side)'),
});

/** OpenEnv's Observation (done, reward, metadata) with our fields. */
export const wireObservationSchema = observationSchema.extend({
  reward: z.number().nullable().optional(),
  metadata: wireMetadataSchema,
});

/** OpenEnv's ResetResponse / StepResponse. */
export const wireResultSchema = z.strictObject({
  observation: wireObservationSchema,
  reward: z.number().nullable(),
  done: z.boolean(),
});

/** What POST /step takes: ours (episode_id, token, step_key) and OpenEnv's StepRequest fields. */
export const wireStepRequestSchema = stepRequestSchema.extend({
  episode_id: idSchema
    .optional()
    .describe('absent: a fresh PD d 0 episode takes this action (OpenEnv’s stateless HTTP)'),
  timeout_s: z.number().positive().optional().describe('OpenEnv’s; accepted, not used (a step takes milliseconds)'),
  request_id: z.string().max(255).optional().describe('OpenEnv’s; accepted, not used (see step_key)'),
});

/** The answer the environment accepts, with its env tag and the done flag. */
function answerSchemaFor(envId: string) {
  const env = getEnv(envId);
  return env.answerSchema.extend({ env: z.literal(env.id), done: z.boolean() });
}

const actionSchemas = new Map<string, z.ZodType>();

/** One turn in this environment, from the tools' and the answer's zod schemas (made once per env). */
export function actionSchemaFor(envId: string): z.ZodType {
  const hit = actionSchemas.get(envId);
  if (hit) return hit;
  const env = getEnv(envId);
  const calls = env.tools.map((name) => z.strictObject({ name: z.literal(name), args: getTool(name)!.args }));
  // Dispatched on the tool name: a plain union tried every tool's schema in turn (10× slower on a late tool).
  const call =
    calls.length === 1 ? calls[0] : z.discriminatedUnion('name', calls as [(typeof calls)[0], ...typeof calls]);
  const schema = z.strictObject({
    assistant_message: z.string().min(1).describe('what the assistant says to the customer this turn'),
    tool_calls: z.array(call).default([]),
    answer: answerSchemaFor(envId).nullable().default(null),
  });
  actionSchemas.set(envId, schema);
  return schema;
}

export const jsonSchema = (schema: z.ZodType): Record<string, unknown> => {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

const schemaCache = new Map<string, unknown>();

/** OpenEnv's SchemaResponse {action, observation, state}: the action of one env, or any env's. */
export function publishedSchemas(envId: string | null) {
  const key = envId ?? '*';
  const hit = schemaCache.get(key);
  if (hit) return hit;
  const action = envId
    ? jsonSchema(actionSchemaFor(envId))
    : { anyOf: envIds.map((id) => ({ title: `${id} action`, ...jsonSchema(actionSchemaFor(id)) })) };
  const out = { action, observation: jsonSchema(wireObservationSchema), state: jsonSchema(agentStateSchema) };
  schemaCache.set(key, out);
  return out;
}

/** "field: problem; field: problem" for a failed parse. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.join('.');
      if (i.code === 'unrecognized_keys')
        return `${path ? `${path}: ` : ''}unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}`;
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

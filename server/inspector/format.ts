// The inspector's own episode file format: JSON Lines, one episode per line.
// Documented in docs/inspector.md; bump FORMAT_VERSION on any incompatible change.
import { z } from 'zod';
import { ENV_IDS } from '@/server/engine/types';

export const FORMAT_NAME = 'ecomrlve.episode';
export const FORMAT_VERSION = 1;

const eventSchema = z
  .object({
    kind: z.enum([
      'customer_message',
      'agent_message',
      'tool_call',
      'answer',
      'world_change',
      'action_error',
      'termination',
      'reward',
    ]),
    turn: z.int().min(0),
  })
  .loose();

export const episodeLineSchema = z.strictObject({
  format: z.literal(FORMAT_NAME),
  version: z.literal(FORMAT_VERSION),
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  createdAt: z.iso.datetime({ offset: true }).optional(),
  envId: z.enum(ENV_IDS),
  d: z.int().min(0).max(100),
  seed: z.int().min(0),
  axisOverrides: z.record(z.string(), z.number()).default({}),
  axes: z.record(z.string(), z.number()).optional(),
  weights: z.object({ task: z.number(), eff: z.number(), hall: z.number() }).nullable().default(null),
  catalogId: z.string().min(1).max(200),
  player: z.string().max(80).default('imported'),
  runLabel: z.string().max(200).nullable().default(null),
  goalRevealed: z.boolean().default(false),
  status: z.enum(['active', 'done']),
  terminationReason: z.string().nullable(),
  turn: z.int().min(0),
  reward: z.number().nullable(),
  isCorrect: z.boolean().nullable(),
  breakdown: z.record(z.string(), z.unknown()).nullable(),
  hiddenGoal: z.object({ envId: z.string(), summary: z.array(z.string()), data: z.unknown() }).loose(),
  events: z.array(eventSchema).min(1),
  /** what was passed to step(), in order; format 'json' = an Action object as JSON text */
  actions: z.array(z.object({ format: z.enum(['text', 'json']), raw: z.string(), turn: z.int().min(0) })).default([]),
  /** per agent turn (index 0 = turn 1): the prompt the model saw, when recorded */
  prompts: z.array(z.string().nullable()).nullable().default(null),
  origin: z.string().max(40).optional(),
  /** the reward revision `reward` was computed under (SPEC §8); files without it count as revision 1 */
  rewardRevision: z.int().min(1).optional(),
  recorded: z.unknown().optional(),
});
export type EpisodeLine = z.infer<typeof episodeLineSchema>;

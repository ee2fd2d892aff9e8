// Every server action runs its work through `serverAction` (the start and fork actions redirect
// after it). A server action is an endpoint anyone
// can post anything to, so each one states who may call it and a zod schema per argument; the
// wrapper checks the admin role first (a caller who may not ask learns nothing about the
// arguments), then what was posted (one BAD_INPUT naming the argument, the path inside it and the
// first problem, worded by the episode service's `parse`, server/episodes/inputs.ts),
// then the agent role (it needs the parsed episode id), then runs the action.
// Any error comes back as its public form: an AppError's own message, anything else only by its
// log id (server/lib/errors.ts).
import { headers } from 'next/headers';
import type { z } from 'zod';
import { authConfig, credentialsFrom, requireAdmin, requireAgent } from '@/server/auth';
import { episodeService } from '@/server/episodes';
import { parse } from '@/server/episodes/inputs';
import { toPublicError } from '@/server/lib/errors';

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; code?: string };

/**
 * Who may call an action (with auth off, anyone): anyone; the admin (`admin` names the operation
 * in the refusal); or the agent of the episode whose id is argument number `agentOf` (or the admin).
 */
export type ActionRole = 'public' | { admin: string } | { agentOf: number };

type Parsed<A extends readonly z.ZodType[]> = { [K in keyof A]: z.output<A[K]> };

export const callerCredentials = async () => credentialsFrom(await headers());

/**
 * Runs one call of a server action: `posted` (the action's arguments as they arrived) checked
 * against `args`, then `run` on the parsed values. Each action is still declared as an exported
 * `async function` (what Next's compiler accepts in a 'use server' file) whose body is this call.
 */
export async function serverAction<const A extends readonly z.ZodType[], R>(
  role: ActionRole,
  args: A,
  posted: unknown[],
  run: (...args: Parsed<A>) => Promise<R>,
): Promise<ActionResult<R>> {
  try {
    if (typeof role === 'object' && 'admin' in role) requireAdmin(authConfig(), await callerCredentials(), role.admin);
    // `schema.description` names the argument in the error
    const parsed = args.map((schema, i) =>
      parse(schema, posted[i], schema.description ?? 'argument', { firstProblemOnly: true }),
    ) as Parsed<A>;
    if (typeof role === 'object' && 'agentOf' in role)
      await requireAgent(authConfig(), await callerCredentials(), parsed[role.agentOf] as string, (id, token) =>
        episodeService.checkCapability(id, token),
      );
    return { ok: true, data: await run(...parsed) };
  } catch (e) {
    const pub = toPublicError(e);
    return { ok: false, error: pub.message, code: pub.code };
  }
}

// Models at the table: saved connections (admin when auth is on; keys never leave the server)
// and the players a playground offers. A model's turn itself streams from
// /play/<id>/model-turn (a route handler: server-sent events).
import { z } from 'zod';
import { isAdmin } from '@/server/auth';
import { getCatalog } from '@/server/catalogs';
import { prisma } from '@/server/db';
import { tableConnectionNames } from '@/server/models/access';
import { checkConformance, type ConformanceReport } from '@/server/models/conformance';
import { publicConnection, type PublicConnection } from '@/server/models/connection';
import { createPrismaConnectionStore } from '@/server/models/prisma-connection-store';
import { BUILT_IN_AGENTS } from '@/server/models/agents';
import { adminProcedure, described, publicProcedure, router } from './init';

const store = () => createPrismaConnectionStore(prisma);

// The last conformance report per connection, in this server process (shown as badges).
const g = globalThis as unknown as { __ecomConformance?: Map<string, ConformanceReport> };
const reports = (g.__ecomConformance ??= new Map());

export type ConnectionRow = PublicConnection & { conformance: ConformanceReport | null };

export const modelsRouter = router({
  connections: adminProcedure.query(async (): Promise<ConnectionRow[]> =>
    (await store().list()).map((c) => ({ ...publicConnection(c), conformance: reports.get(c.name) ?? null })),
  ),
  /**
   * Saves (insert or replace by name), then runs the conformance check: a failing check does not
   * block saving, it is shown as a badge. A bad connection is BAD_REQUEST.
   */
  save: adminProcedure
    // checked by parseConnection, whose messages never echo a value that could be a key
    .input((raw: unknown) => raw)
    .mutation(async ({ input }): Promise<ConnectionRow> => {
      const connection = await store().save(input);
      const conformance = await checkConformance(connection, getCatalog());
      reports.set(connection.name, conformance);
      return { ...publicConnection(connection), conformance };
    }),
  delete: adminProcedure.input(described(z.object({ name: z.string() }), 'connection')).mutation(async ({ input }) => {
    reports.delete(input.name);
    return store().remove(input.name);
  }),
  /**
   * The players the playground offers: connection names (no connection details; to a non-admin
   * with auth on only the public ones) and the built-in agents. The oracle reads the hidden goal:
   * it is offered to the inspector (the admin when auth is on) only, and the model-turn route
   * refuses it to anyone else.
   */
  players: publicProcedure.query(async ({ ctx }) => {
    const admin = isAdmin(ctx.auth, ctx.creds);
    return {
      connections: await tableConnectionNames(store(), admin),
      agents: BUILT_IN_AGENTS.filter((a) => a !== 'oracle' || admin),
    };
  }),
});

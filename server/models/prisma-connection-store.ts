// Connections in the database (table ModelConnection). Stored as validated JSON and
// validated again when read, so a row edited by hand cannot smuggle in a bad host.

import type { PrismaClient } from '@/server/db';
import { parseConnection, type Connection, type ConnectionStore, type Env } from './connection';

export function createPrismaConnectionStore(prisma: PrismaClient, env: Env = process.env): ConnectionStore {
  const read = (row: { config: string }): Connection => parseConnection(JSON.parse(row.config), env);
  return {
    async list() {
      const rows = await prisma.modelConnection.findMany({ orderBy: { name: 'asc' } });
      return rows.map(read);
    },
    async get(name) {
      const row = await prisma.modelConnection.findUnique({ where: { name } });
      return row ? read(row) : null;
    },
    async save(input) {
      const connection = parseConnection(input, env);
      const config = JSON.stringify(connection);
      await prisma.modelConnection.upsert({
        where: { name: connection.name },
        create: { name: connection.name, config },
        update: { config },
      });
      return connection;
    },
    async remove(name) {
      const { count } = await prisma.modelConnection.deleteMany({ where: { name } });
      return count > 0;
    },
  };
}

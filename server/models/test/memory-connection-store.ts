// Connections kept in memory, for tests (the app keeps them with Prisma).
import { parseConnection, type Connection, type ConnectionStore, type Env } from '../connection';

export function createMemoryConnectionStore(env: Env = process.env): ConnectionStore {
  const byName = new Map<string, Connection>();
  return {
    async list() {
      return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    async get(name) {
      return byName.get(name) ?? null;
    },
    async save(input) {
      const connection = parseConnection(input, env);
      byName.set(connection.name, connection);
      return connection;
    },
    async remove(name) {
      return byName.delete(name);
    },
  };
}

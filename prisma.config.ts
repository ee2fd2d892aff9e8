import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { MigratePg } from './prisma/pg/migrate-adapter';
import { databaseKind } from './server/db/url';

// Same default as server/db.ts; the path is relative to the process cwd (the repo root).
// postgres:// or postgresql:// selects the PostgreSQL schema derived from prisma/schema.prisma
// (prisma/pg/, see scripts/pg-schema.ts) and its own migrations.
const url = process.env.DATABASE_URL ?? 'file:./prisma/dev.db';
const kind = databaseKind(url);

// The wasm schema engine (engine: 'js') sends whole multi-statement migration scripts
// through executeRaw; better-sqlite3's prepare() accepts one statement only.
// Fall back to exec() for parameterless SQL that prepare() rejects (STACK.md recipe).
type DriverAdapter = Awaited<ReturnType<PrismaBetterSQLite3['connect']>>;
function patch<T extends DriverAdapter>(a: T): T {
  const orig = a.executeRaw.bind(a);
  a.executeRaw = async (q) => {
    if (q.args.length > 0) return orig(q);
    try {
      return await orig(q);
    } catch {
      await a.executeScript(q.sql);
      return 0;
    }
  };
  return a;
}

class MigrateAdapter extends PrismaBetterSQLite3 {
  async connect() {
    return patch(await super.connect());
  }
  async connectToShadowDb() {
    return patch(await super.connectToShadowDb());
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js', // bundled wasm schema engine: no binary download
  schema: kind === 'postgresql' ? 'prisma/pg/schema.prisma' : 'prisma/schema.prisma',
  migrations: { path: kind === 'postgresql' ? 'prisma/pg/migrations' : 'prisma/migrations' },
  adapter: async () => (kind === 'postgresql' ? new MigratePg(url) : new MigrateAdapter({ url })),
});

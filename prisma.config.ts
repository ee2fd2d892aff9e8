import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';

// Same default as server/db.ts; the path is relative to the process cwd (the repo root).
const url = process.env.DATABASE_URL ?? 'file:./prisma/dev.db';

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
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: async () => new MigrateAdapter({ url }),
});

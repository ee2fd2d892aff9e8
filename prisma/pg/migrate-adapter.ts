// The PostgreSQL adapter for Prisma's CLI (migrate deploy / diff / status), with the two
// work-arounds of /work/shared/STACK.md ("Working recipe: Prisma 6.19.3, PostgreSQL 15"):
// adapter-pg 6.19.3 cannot map some catalog types the wasm schema engine reads (name, "char",
// name[]), and it drops the shadow database before closing its pool. Runtime clients need neither.
import { PrismaPg } from '@prisma/adapter-pg';
import { randomUUID } from 'node:crypto';
import { pgConnectionConfig } from '../../server/db/url';

// name → text, "char" → text, name[] / int2vector → text[]
const OID_MAP: Record<number, number> = { 19: 25, 18: 25, 1003: 1009, 1002: 1009 };

type Queryable = { performIO: (q: unknown) => Promise<{ fields?: Array<{ dataTypeID: number }> }> };
type Scripted = {
  client: { query: (sql: string) => Promise<unknown> };
  executeScript: (s: string) => Promise<void>;
  onError: (e: unknown) => never;
};

// Work-around 3: adapter-pg's executeScript splits a migration on ";", which breaks plpgsql
// bodies (the trigger functions) and comments. Send the whole script as one simple query:
// PostgreSQL runs it as one implicit transaction.
function wholeScripts<T extends object>(adapter: T): T {
  const a = adapter as unknown as Scripted;
  a.executeScript = async (script: string) => {
    try {
      await a.client.query(script);
    } catch (e) {
      a.onError(e);
    }
  };
  return adapter;
}

let patched = false;
function patchProto(obj: object) {
  if (patched) return;
  let proto = Object.getPrototypeOf(obj);
  while (proto && !Object.hasOwn(proto, 'performIO')) proto = Object.getPrototypeOf(proto);
  if (!proto) throw new Error('adapter-pg changed: performIO not found (pin @prisma/adapter-pg 6.19.3)');
  const orig = (proto as Queryable).performIO;
  (proto as Queryable).performIO = async function (this: unknown, q: unknown) {
    const r = await orig.call(this, q);
    if (r && Array.isArray(r.fields)) for (const f of r.fields) f.dataTypeID = OID_MAP[f.dataTypeID] ?? f.dataTypeID;
    return r;
  };
  patched = true;
}

export class MigratePg extends PrismaPg {
  constructor(private readonly url: string) {
    super(pgConnectionConfig(url));
  }
  async connect() {
    const a = await super.connect();
    patchProto(a);
    return wholeScripts(a);
  }
  async connectToShadowDb() {
    const admin = await this.connect();
    const database = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
    await admin.executeScript(`CREATE DATABASE "${database}"`);
    const shadow = await new PrismaPg({ ...pgConnectionConfig(this.url), database }).connect();
    patchProto(shadow);
    wholeScripts(shadow);
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await admin.executeScript(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.dispose();
    };
    return shadow;
  }
}

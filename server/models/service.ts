// The models service: connections as the pages see them, with their conformance badge.
// Nothing here returns a key: only whether the key's variable is set. (Batch runs: runs.ts.)

import type { Catalog } from '@/server/engine';
import { checkConformance, type ConformanceReport } from './conformance';
import type { Connection, ConnectionStore, Env } from './connection';

/** A connection as the browser may see it. */
export interface PublicConnection extends Connection {
  /** null when the connection needs no key; otherwise whether its variable is set on the server. */
  apiKeySet: boolean | null;
}

export function publicConnection(connection: Connection, env: Env = process.env): PublicConnection {
  return { ...connection, apiKeySet: connection.apiKeyEnv ? Boolean(env[connection.apiKeyEnv]) : null };
}

export async function listConnections(store: ConnectionStore, env: Env = process.env): Promise<PublicConnection[]> {
  return (await store.list()).map((c) => publicConnection(c, env));
}

/** Validates and stores, then runs the conformance check (a failing check does not block saving: it is shown as a badge). */
export async function saveConnection(
  store: ConnectionStore,
  input: unknown,
  catalog: Catalog,
  env: Env = process.env,
): Promise<{ connection: PublicConnection; conformance: ConformanceReport }> {
  const connection = await store.save(input);
  const conformance = await checkConformance(connection, catalog, { env });
  return { connection: publicConnection(connection, env), conformance };
}

// Who may make the server call a model endpoint. With auth on, a connection is the admin's (its
// key, its cost) unless the admin marked it `public`: playing it at the table, letting it voice
// the customer or seeing its name needs the admin otherwise. With auth off everyone is admin.
import { AppError } from '@/server/lib/errors';
import type { Connection, ConnectionStore } from './connection';
import { BUILT_IN_AGENTS, isBuiltInAgent } from './agents';
import type { TablePlayer } from './table';

/**
 * The connection `name` if this caller may use it. `requireAdminFor` throws for a non-admin;
 * an unknown name is answered to a non-admin as a private one is, so names cannot be probed.
 */
export async function requireConnectionUse(
  store: ConnectionStore,
  name: string,
  requireAdminFor: (what: string) => void,
  use = 'playing the model connection',
): Promise<Connection> {
  const connection = await store.get(name);
  if (!connection?.public) requireAdminFor(`${use} "${name}"`);
  if (!connection) throw new AppError('NOT_FOUND', `no model connection named "${name}"`);
  return connection;
}

/** The connection names the table offers this caller: all for the admin, the public ones otherwise. */
export async function tableConnectionNames(store: ConnectionStore, admin: boolean): Promise<string[]> {
  return (await store.list()).filter((c) => admin || c.public).map((c) => c.name);
}

/**
 * The player a key names: "agent:<name>" (or a bare built-in agent's name) or "connection:<name>"
 * (or any other name: a connection), checked as requireConnectionUse does; the oracle reads the
 * hidden goal, so with auth on only the admin may let it play. The table, batch runs and the
 * curriculum resolve their player here.
 */
export async function tablePlayerFor(
  store: ConnectionStore,
  key: string,
  requireAdminFor: (what: string) => void,
): Promise<TablePlayer> {
  const agent = key.startsWith('agent:') ? key.slice(6) : key;
  if (agent === 'oracle') requireAdminFor('the oracle (it reads the hidden goal)');
  if (isBuiltInAgent(agent)) return { kind: 'agent', agent };
  if (key.startsWith('agent:'))
    throw new AppError('BAD_INPUT', `unknown built-in agent "${agent}"; choose ${BUILT_IN_AGENTS.join(', ')}`);
  return {
    kind: 'model',
    connection: await requireConnectionUse(store, key.replace(/^connection:/, ''), requireAdminFor),
  };
}

// The JSON text of reset/step answers, byte for byte what JSON.stringify gives, made cheaply.
// An engine observation carries the env's tool specs (most of its bytes) behind a getter that
// deep-copies them on first read (server/engine/episode.ts, observe()): JSON.stringify would
// copy and re-serialise them on every step. They are the same for every episode of an env, so
// their JSON is made once per env and spliced in. An observation whose tools were already read
// or replaced is serialised as it is.

import { availableEnvs, toolSpecsFor } from '@/server/engine/envs/registry';

const KNOWN_ENVS = new Set<string>(availableEnvs().map((e) => e.id));
const toolsJsonByEnv = new Map<string, string>();

function toolsJson(envId: string): string {
  let json = toolsJsonByEnv.get(envId);
  if (json === undefined) {
    json = JSON.stringify(toolSpecsFor(envId));
    toolsJsonByEnv.set(envId, json);
  }
  return json;
}

/** JSON.stringify(obj) with the value of `key` (a plain identifier) given as ready JSON; key order kept. */
function splice(obj: object, key: string, json: string): string {
  const before: Record<string, unknown> = Object.create(null);
  const after: Record<string, unknown> = Object.create(null);
  let seen = false;
  for (const k of Object.keys(obj)) {
    if (k === key) seen = true;
    else (seen ? after : before)[k] = (obj as Record<string, unknown>)[k];
  }
  const head = JSON.stringify(before).slice(0, -1); // "{…" without its "}"
  const tail = JSON.stringify(after).slice(1); // "…}" without its "{"
  return `${head}${head === '{' ? '' : ','}"${key}":${json}${tail === '}' ? '' : ','}${tail}`;
}

/** Whether the observation's tools are still the engine's untouched specs (the copy-on-read getter). */
function untouchedTools(observation: object): string | null {
  const envId = (observation as { envId?: unknown }).envId;
  if (typeof envId !== 'string' || !KNOWN_ENVS.has(envId)) return null;
  const tools = Object.getOwnPropertyDescriptor(observation, 'tools');
  return tools?.get && tools.enumerable ? envId : null;
}

export function observationJson(observation: unknown): string {
  if (typeof observation !== 'object' || observation === null) return JSON.stringify(observation);
  const envId = untouchedTools(observation);
  return envId === null ? JSON.stringify(observation) : splice(observation, 'tools', toolsJson(envId));
}

/** The JSON text of a response body: reset/step answers (an `observation` field) fast, anything else as JSON.stringify. */
export function responseJson(body: unknown): string {
  if (typeof body === 'object' && body !== null && Object.hasOwn(body, 'observation')) {
    const observation = (body as { observation: unknown }).observation;
    if (typeof observation === 'object' && observation !== null && untouchedTools(observation) !== null)
      return splice(body, 'observation', observationJson(observation));
  }
  return JSON.stringify(body);
}

// The JSON text of reset/step answers, byte for byte what JSON.stringify gives, made cheaply.
// An engine observation carries the env's tool specs (most of its bytes) behind a getter that
// deep-copies them on first read (server/engine/episode.ts, observe()): JSON.stringify would
// copy and re-serialise them on every step. They are the same for every episode of an env, so
// their JSON is made once per env and spliced in. An observation whose tools were already read
// or replaced is serialised as it is.
// The transports send bytes: the specs' UTF-8 is made once per env too and copied into each
// answer (wireBytes). Four of the eight envs' specs hold a non-Latin-1 character ("1–365"), which
// made every answer of theirs a two-byte string to flatten and encode whole (twelfth round).
import { availableEnvs, toolSpecsFor } from '@/server/engine/envs/registry';

const KNOWN_ENVS = new Set<string>(availableEnvs().map((e) => e.id));
interface ToolsJson {
  text: string;
  bytes: Buffer;
}
const toolsJsonByEnv = new Map<string, ToolsJson>();

function toolsJson(envId: string): ToolsJson {
  let json = toolsJsonByEnv.get(envId);
  if (json === undefined) {
    const text = JSON.stringify(toolSpecsFor(envId));
    json = { text, bytes: Buffer.from(text, 'utf8') };
    toolsJsonByEnv.set(envId, json);
  }
  return json;
}

/**
 * JSON.stringify(obj) around the value of `key` (a plain identifier), key order kept: the text
 * up to and including `"key":`, and the text after the value.
 */
function around(obj: object, key: string): [head: string, tail: string] {
  const before: Record<string, unknown> = Object.create(null);
  const after: Record<string, unknown> = Object.create(null);
  let seen = false;
  for (const k of Object.keys(obj)) {
    if (k === key) seen = true;
    else (seen ? after : before)[k] = (obj as Record<string, unknown>)[k];
  }
  const head = JSON.stringify(before).slice(0, -1); // "{…" without its "}"
  const tail = JSON.stringify(after).slice(1); // "…}" without its "{"
  return [`${head}${head === '{' ? '' : ','}"${key}":`, `${tail === '}' ? '' : ','}${tail}`];
}

/** JSON.stringify(obj) with the value of `key` given as ready JSON. */
function splice(obj: object, key: string, json: string): string {
  const [head, tail] = around(obj, key);
  return `${head}${json}${tail}`;
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
  return envId === null ? JSON.stringify(observation) : splice(observation, 'tools', toolsJson(envId).text);
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

// Answers are cut from a shared slab instead of one ArrayBuffer each (Buffer.allocUnsafe has no
// pool above 4 KB): a slab is never written twice, each answer keeps it alive until sent.
const SLAB_BYTES = 256 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let slabUsed = 0;

function answerBuffer(size: number): Buffer {
  if (size > SLAB_BYTES / 8) return Buffer.allocUnsafe(size);
  if (slabUsed + size > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + size);
  slabUsed += (size + 7) & ~7; // 8-byte aligned, as Buffer's own pool
  return out;
}

/**
 * The UTF-8 of `${prefix}${responseJson(body)}${suffix}`: for a reset/step answer, a Buffer with
 * the env's tool specs copied in as ready bytes; for anything else, that text as it is (the
 * transport encodes it).
 */
export function wireBytes(body: unknown, prefix = '', suffix = ''): Buffer | string {
  if (typeof body === 'object' && body !== null && Object.hasOwn(body, 'observation')) {
    const observation = (body as { observation: unknown }).observation;
    const envId = typeof observation === 'object' && observation !== null ? untouchedTools(observation) : null;
    if (envId !== null) {
      const [bodyHead, bodyTail] = around(body, 'observation');
      const [obsHead, obsTail] = around(observation as object, 'tools');
      const head = `${prefix}${bodyHead}${obsHead}`;
      const tail = `${obsTail}${bodyTail}${suffix}`;
      const tools = toolsJson(envId).bytes;
      const headLength = Buffer.byteLength(head, 'utf8');
      const out = answerBuffer(headLength + tools.length + Buffer.byteLength(tail, 'utf8'));
      const written =
        out.write(head, 0, 'utf8') + tools.copy(out, headLength) + out.write(tail, headLength + tools.length, 'utf8');
      // Never send a byte not written (the slab is uninitialised memory): the text instead.
      if (written === out.length) return out;
    }
  }
  return `${prefix}${JSON.stringify(body)}${suffix}`;
}

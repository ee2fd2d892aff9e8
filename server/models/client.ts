// One chat-completions call over fetch, plain or streamed, with every failure of
// the transport classified as an infrastructure failure (never the agent's fault)
// and retried with backoff. The API key goes only into the Authorization header.

import { assertAllowedBaseUrl, redact, resolveApiKey, type Connection, type Env } from './connection';
import type { ChatRequest, ChatResponse, Usage, WireToolCall } from './openai';

export type InfraKind = 'timeout' | 'http' | 'connection' | 'bad_response' | 'config';

export class InfraError extends Error {
  constructor(
    readonly kind: InfraKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
  /** Worth another attempt: the same request may well succeed later. */
  get retryable(): boolean {
    if (this.kind === 'config') return false;
    if (this.kind === 'http')
      return this.status === 408 || this.status === 409 || this.status === 429 || (this.status ?? 0) >= 500;
    return true;
  }
}

/** The caller cancelled (Ctrl-C, Pause): neither a reward nor an infrastructure failure. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

export interface ChatReply {
  content: string | null;
  toolCalls: WireToolCall[];
  finishReason: string | null;
  usage: Usage | null;
  /** The body as received (for a stream, the SSE text). */
  rawText: string;
  latencyMs: number;
}

/** A streamed reply as assembled so far: display-only, never stepped. */
export interface PartialReply {
  content: string | null;
  toolCalls: WireToolCall[];
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** Extra headers (the agent server's episode header); never the key. */
  headers?: Record<string, string>;
  /** The reply so far while it streams (text and tool calls as assembled), for a live view only. */
  onPartial?: (partial: PartialReply) => void;
  env?: Env;
}

export function requestBody(connection: Connection, body: Omit<ChatRequest, 'model'>): ChatRequest {
  return {
    model: connection.model,
    ...body,
    temperature: connection.temperature,
    top_p: connection.topP,
    max_tokens: connection.maxTokens,
    ...(connection.seed !== undefined ? { seed: connection.seed } : {}),
    ...(connection.stream ? { stream: true } : {}),
  };
}

export async function chatCompletion(
  connection: Connection,
  request: ChatRequest,
  options: ChatOptions = {},
): Promise<ChatReply> {
  const env = options.env ?? process.env;
  let key: string | null;
  let url: URL;
  try {
    url = assertAllowedBaseUrl(connection.baseUrl, env);
    key = resolveApiKey(connection, env);
  } catch (e) {
    throw new InfraError('config', (e as Error).message);
  }
  const endpoint = `${url.href.replace(/\/+$/, '')}/chat/completions`;
  const timeout = AbortSignal.timeout(connection.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const started = performance.now();
  const fail = (e: unknown): never => {
    if (options.signal?.aborted) throw new CancelledError();
    if (timeout.aborted) throw new InfraError('timeout', `no complete reply within ${connection.timeoutMs} ms`);
    if (e instanceof InfraError) throw new InfraError(e.kind, redact(e.message, key), e.status);
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new InfraError(
      'connection',
      redact(`cannot reach ${endpoint}: ${cause?.code ?? cause?.message ?? (e as Error).message}`, key),
    );
  };

  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...options.headers,
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(request),
      signal,
      // a redirect could lead to a host the allow-list refuses, with the key: never followed
      redirect: 'manual',
    });
  } catch (e) {
    return fail(e);
  }
  try {
    if (response.status >= 300 && response.status < 400)
      throw new InfraError(
        'http',
        `${endpoint} answered with a redirect (HTTP ${response.status}); redirects are not followed: give the final address as the base URL`,
        response.status,
      );
    if (!response.ok) {
      const body = await response.text();
      throw new InfraError(
        'http',
        redact(`HTTP ${response.status} from ${endpoint}: ${body.slice(0, 300)}`, key),
        response.status,
      );
    }
    const isStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const onPartial = options.onPartial && ((p: PartialReply) => options.onPartial!(redactReply(p, key)));
    const reply = isStream ? await readStream(response, onPartial) : parseBody(await response.text());
    return { ...redactReply(reply, key), latencyMs: Math.round(performance.now() - started) };
  } catch (e) {
    return fail(e);
  }
}

/**
 * The reply without the key, wherever the endpoint put it (an echoing server): the text, each
 * call's name and arguments, the raw body. Everything downstream (the agent's view, the stored
 * action, replay, export) reads only this.
 */
function redactReply<T extends PartialReply & { rawText?: string }>(reply: T, key: string | null): T {
  if (!key) return reply;
  return {
    ...reply,
    content: reply.content === null ? null : redact(reply.content, key),
    toolCalls: reply.toolCalls.map((c) => ({
      ...c,
      id: redact(c.id, key),
      function: { name: redact(c.function.name, key), arguments: redact(c.function.arguments, key) },
    })),
    ...(reply.rawText === undefined ? {} : { rawText: redact(reply.rawText, key) }),
  };
}

function parseBody(text: string): Omit<ChatReply, 'latencyMs'> {
  let body: ChatResponse;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InfraError('bad_response', `the reply is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  const choice = body?.choices?.[0];
  if (!choice?.message) throw new InfraError('bad_response', 'the reply has no choices[0].message');
  return {
    content: choice.message.content ?? null,
    toolCalls: choice.message.tool_calls ?? [],
    finishReason: choice.finish_reason ?? null,
    usage: body.usage ?? null,
    rawText: text,
  };
}

/** Assembles a server-sent-events reply: content deltas, tool-call deltas by index, usage. */
async function readStream(
  response: Response,
  onPartial?: (partial: PartialReply) => void,
): Promise<Omit<ChatReply, 'latencyMs'>> {
  const decoder = new TextDecoder();
  let raw = '';
  let buffer = '';
  let content: string | null = null;
  let finishReason: string | null = null;
  let usage: Usage | null = null;
  let sawDone = false;
  const calls: WireToolCall[] = [];
  const reader = response.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    raw += chunk;
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        sawDone = true;
        continue;
      }
      let event: {
        usage?: typeof usage;
        choices?: Array<{
          finish_reason?: string | null;
          delta?: {
            content?: unknown;
            tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
          };
        }>;
      };
      try {
        event = JSON.parse(data);
      } catch {
        throw new InfraError('bad_response', `a streamed event is not JSON: ${JSON.stringify(data.slice(0, 120))}`);
      }
      if (event.usage) usage = event.usage;
      const choice = event.choices?.[0];
      if (!choice) continue;
      if (choice.finish_reason) finishReason = choice.finish_reason;
      const delta = choice.delta ?? {};
      const grew = typeof delta.content === 'string' || (delta.tool_calls?.length ?? 0) > 0;
      if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
      for (const d of delta.tool_calls ?? []) {
        const i = d.index ?? calls.length;
        calls[i] ??= { id: d.id ?? `call_${i}`, type: 'function', function: { name: '', arguments: '' } };
        if (d.id) calls[i].id = d.id;
        if (d.function?.name) calls[i].function.name += d.function.name;
        if (d.function?.arguments) calls[i].function.arguments += d.function.arguments;
      }
      if (grew && onPartial)
        onPartial({ content, toolCalls: calls.filter(Boolean).map((c) => ({ ...c, function: { ...c.function } })) });
    }
  }
  if (!sawDone && finishReason === null)
    throw new InfraError('bad_response', 'the stream ended before the reply was complete');
  return { content, toolCalls: calls.filter(Boolean), finishReason, usage, rawText: raw };
}

export interface AttemptRecord {
  ok: boolean;
  kind?: InfraKind;
  status?: number;
  error?: string;
  latencyMs: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(new CancelledError())), { once: true });
  });

/** What a model call sent and got back: the exact body (the key is only ever in a header), each attempt, the reply. */
export interface CallRecord {
  request: ChatRequest;
  attempts: AttemptRecord[];
  reply: ChatReply | null;
}

/** A model call: its record, and either the reply or the infrastructure failure left after retries. */
export type ModelCall = CallRecord & ({ ok: true; reply: ChatReply } | { ok: false; reply: null; infra: InfraError });

/**
 * Sends the request, retrying retryable infrastructure failures up to the connection's maxRetries
 * (pauses from `backoffMs`, default 500 ms, doubling, capped at 8 s). The failure left after them is
 * returned (`ok: false`), never thrown; a cancel throws CancelledError.
 */
export async function callModel(
  connection: Connection,
  request: ChatRequest,
  options: ChatOptions & { backoffMs?: number } = {},
): Promise<ModelCall> {
  const attempts: AttemptRecord[] = [];
  for (let attempt = 0; ; attempt++) {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      const reply = await chatCompletion(connection, request, options);
      attempts.push({ ok: true, latencyMs: latencyMs() });
      return { ok: true, request, attempts, reply };
    } catch (e) {
      if (!(e instanceof InfraError)) throw e;
      const { kind, status, message: error } = e;
      attempts.push({ ok: false, kind, ...(status ? { status } : {}), error, latencyMs: latencyMs() });
      if (!e.retryable || attempt >= connection.maxRetries)
        return { ok: false, request, attempts, reply: null, infra: e };
      await sleep(Math.min(8000, (options.backoffMs ?? 500) * 2 ** attempt), options.signal);
    }
  }
}

// A TypeScript client for the env server: HTTP (one request per call, any episode) and
// WebSocket (one connection, one episode at a time, lowest latency). Reset and step answers come
// in OpenEnv's shape ({observation (with our metadata), reward, done}) and are handed back flat
// (fromWire); everything else as it is. `onMessage` sees each raw server→client message.

import WebSocket from 'ws';
import type { AgentState, ResetResponse, StepResponse } from '@/server/env-server/protocol';
import type { Action, ToolSpec } from '@/server/engine';
import type { WireResult } from '@/server/env-server/openenv-wire';

export type { AgentState, ResetResponse, StepResponse };

/**
 * A wire reset or step answer back in our flat shape: the observation's metadata (ours) beside it.
 * Only a reset's observation lists the tools (an env's tools never change): a step's observation
 * gets its env's tools back from `toolsByEnv` (filled from resets), so every observation this
 * client returns has them.
 */
export function fromWire(
  body: WireResult,
  toolsByEnv?: Map<string, readonly ToolSpec[]>,
): StepResponse & Partial<ResetResponse> {
  const { metadata, ...sent } = body.observation;
  if (sent.tools) toolsByEnv?.set(sent.envId, sent.tools);
  const observation = { ...sent, tools: sent.tools ?? toolsByEnv?.get(sent.envId) } as StepResponse['observation'];
  const ours = metadata as Omit<ResetResponse, 'observation' | 'reward' | 'done'>;
  return { ...ours, observation, reward: body.reward, done: body.done };
}

export interface ResetOptions {
  env?: string;
  d?: number;
  seed?: number;
  run?: string;
  /** the trainer's step and rollout group, stored with the episode (GRPO groups) */
  train_step?: number;
  group?: string;
  episode_id?: string;
  axis_overrides?: Record<string, number>;
}

/** An action: structured, or the model's raw text. */
export type WireAction = Action | string;

export interface ClientOptions {
  /** Sent as "Authorization: Bearer …": lets state() return the full inspector state (simulation mode). */
  adminToken?: string;
  onMessage?: (raw: string) => void;
}

export class EnvClientError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly episodeId: string | null,
    readonly status: number | null,
  ) {
    super(`${code}: ${message}`);
  }
}

export class EnvHttpClient {
  private readonly base: string;
  private readonly tokens = new Map<string, string>();
  /** Each env's tools, from a reset's answer (steps do not repeat them): at most one entry per env. */
  private readonly tools = new Map<string, readonly ToolSpec[]>();

  constructor(
    baseUrl: string,
    private readonly options: ClientOptions = {},
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    this.options.onMessage?.(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new EnvClientError(
        'INVALID_RESPONSE',
        `${method} ${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`,
        null,
        res.status,
      );
    }
    if (!res.ok) {
      const err = parsed as {
        episode_id?: string | null;
        error?: { code?: string; message?: string };
        detail?: unknown;
      };
      throw new EnvClientError(
        err.error?.code ?? 'HTTP_ERROR',
        err.error?.message ?? text,
        err.episode_id ?? null,
        res.status,
      );
    }
    return parsed as T;
  }

  async reset(options: ResetOptions = {}): Promise<ResetResponse> {
    const r = fromWire(await this.call<WireResult>('POST', '/reset', options), this.tools) as ResetResponse;
    this.tokens.set(r.episode_id, r.token);
    return r;
  }

  async step(episodeId: string, action: WireAction): Promise<StepResponse> {
    return fromWire(
      await this.call<WireResult>('POST', '/step', { episode_id: episodeId, action }, this.tokens.get(episodeId)),
      this.tools,
    );
  }

  /** Agent-visible state with the episode's token; the full state when the client holds the admin token. */
  state(episodeId: string): Promise<AgentState & Record<string, unknown>> {
    const token = this.options.adminToken ?? this.tokens.get(episodeId);
    return this.call('GET', `/state?episode_id=${encodeURIComponent(episodeId)}`, undefined, token);
  }

  schema(env?: string): Promise<Record<string, unknown>> {
    return this.call('GET', env ? `/schema?env=${encodeURIComponent(env)}` : '/schema');
  }

  metadata(): Promise<Record<string, unknown>> {
    return this.call('GET', '/metadata');
  }

  health(): Promise<{ status: string }> {
    return this.call('GET', '/health');
  }

  /** Ours: mode, catalog, envs, limits, active sessions. */
  info(): Promise<Record<string, unknown>> {
    return this.call('GET', '/info');
  }
}

interface Pending {
  resolve: (data: unknown) => void;
  reject: (e: Error) => void;
}

export class EnvWsClient {
  private readonly pending: Pending[] = [];
  private closedWith: Error | null = null;
  /** The current episode (set by reset). */
  episodeId: string | null = null;
  /** Each env's tools, from a reset's answer (steps do not repeat them). */
  private readonly tools = new Map<string, readonly ToolSpec[]>();

  private constructor(
    private readonly socket: WebSocket,
    private readonly options: ClientOptions,
  ) {
    socket.on('message', (raw) => {
      const text = raw.toString();
      this.options.onMessage?.(text);
      const next = this.pending.shift();
      if (!next) return;
      const msg = JSON.parse(text) as {
        type: string;
        data: { episode_id?: string | null; code?: string; message?: string };
      };
      if (msg.type === 'error')
        next.reject(
          new EnvClientError(msg.data.code ?? 'ERROR', msg.data.message ?? text, msg.data.episode_id ?? null, null),
        );
      else next.resolve(msg.data);
    });
    socket.on('close', (code, reason) => {
      this.closedWith = new Error(`the WebSocket closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`);
      for (const p of this.pending.splice(0)) p.reject(this.closedWith);
    });
  }

  static connect(baseUrl: string, options: ClientOptions = {}): Promise<EnvWsClient> {
    const url = `${baseUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws`;
    const socket = new WebSocket(url, {
      headers: options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {},
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new EnvWsClient(socket, options)));
      socket.once('error', reject);
    });
  }

  private request<T>(type: string, data?: unknown): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ resolve: resolve as (d: unknown) => void, reject });
      this.socket.send(JSON.stringify(data === undefined ? { type } : { type, data }));
    });
  }

  async reset(options: ResetOptions = {}): Promise<ResetResponse> {
    const r = fromWire(await this.request<WireResult>('reset', options), this.tools) as ResetResponse;
    this.episodeId = r.episode_id;
    return r;
  }

  async step(action: WireAction): Promise<StepResponse> {
    return fromWire(await this.request<WireResult>('step', action), this.tools);
  }

  state(): Promise<AgentState & Record<string, unknown>> {
    return this.request('state');
  }

  /** Sends raw text (for protocol tests) and waits for the answer. */
  sendRaw<T = unknown>(text: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ resolve: resolve as (d: unknown) => void, reject });
      this.socket.send(text);
    });
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.send(JSON.stringify({ type: 'close' }));
    });
  }
}

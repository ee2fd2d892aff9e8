// Test helper: a scripted OpenAI-compatible endpoint on loopback. Each request
// takes the next step of the script (the last step repeats), so a test can say
// "500, then a good reply" or "a stream that stalls". Every request is recorded
// with its headers, so tests can check what reached the wire.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatRequest, WireToolCall } from '../openai';

export type FakeStep =
  | {
      kind: 'reply';
      content?: string | null;
      toolCalls?: Array<{ name: string; arguments: string }>;
      finishReason?: string;
    }
  | { kind: 'status'; status: number; body?: string | ((req: RecordedRequest) => string) }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** A 200 whose body is not a chat completion. */
  | { kind: 'garbage'; body: string }
  /** Closes the socket without an answer. */
  | { kind: 'drop' }
  /** Server-sent events: the content in pieces, `delayMs` apart; `stall` stops before the end without closing. */
  | {
      kind: 'stream';
      pieces: string[];
      delayMs: number;
      toolCalls?: Array<{ name: string; arguments: string }>;
      stall?: boolean;
    }
  /** Computes the step from the request. */
  | { kind: 'fn'; fn: (req: RecordedRequest) => FakeStep };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: ChatRequest | null;
  raw: string;
}

export interface FakeEndpoint {
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Replaces the script (and restarts it). */
  script(steps: FakeStep[]): void;
  close(): Promise<void>;
}

const toolCalls = (calls: Array<{ name: string; arguments: string }> = []): WireToolCall[] =>
  calls.map((c, i) => ({ id: `call_fake_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } }));

export async function startFakeEndpoint(steps: FakeStep[] = [], port = 0): Promise<FakeEndpoint> {
  let script = steps;
  let next = 0;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: ChatRequest | null;
    try {
      body = JSON.parse(raw);
    } catch {
      body = null;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      raw,
    };
    requests.push(recorded);
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake', object: 'model' }] }));
    }
    let step = script[Math.min(next++, script.length - 1)] ?? { kind: 'status', status: 500, body: 'no script' };
    while (step.kind === 'fn') step = step.fn(recorded);
    switch (step.kind) {
      case 'reply': {
        const calls = toolCalls(step.toolCalls);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            id: 'chatcmpl-fake',
            object: 'chat.completion',
            model: body?.model ?? 'fake',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: step.content ?? null,
                  ...(calls.length ? { tool_calls: calls } : {}),
                },
                finish_reason: step.finishReason ?? (calls.length ? 'tool_calls' : 'stop'),
              },
            ],
            usage: { prompt_tokens: raw.length, completion_tokens: 7, total_tokens: raw.length + 7 },
          }),
        );
      }
      case 'status':
        res.writeHead(step.status, { 'content-type': 'text/plain' });
        return res.end(typeof step.body === 'function' ? step.body(recorded) : (step.body ?? `status ${step.status}`));
      case 'garbage':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(step.body);
      case 'drop':
        return req.socket.destroy();
      case 'hang':
        return;
      case 'stream': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const send = (delta: object, finish: string | null = null) =>
          res.write(
            `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
          );
        send({ role: 'assistant' });
        for (const piece of step.pieces) {
          await new Promise((r) => setTimeout(r, step.delayMs));
          if (res.destroyed) return;
          send({ content: piece });
        }
        if (step.stall) return;
        // as vLLM and OpenAI stream them: id and name first, then the arguments in pieces
        for (const [index, call] of toolCalls(step.toolCalls).entries()) {
          send({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name } }] });
          for (const part of call.function.arguments.match(/[\s\S]{1,8}/g) ?? []) {
            await new Promise((r) => setTimeout(r, step.delayMs));
            if (res.destroyed) return;
            send({ tool_calls: [{ index, function: { arguments: part } }] });
          }
        }
        send({}, step.toolCalls?.length ? 'tool_calls' : 'stop');
        return res.end('data: [DONE]\n\n');
      }
    }
  };

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${bound}/v1`,
    port: bound,
    requests,
    script(steps) {
      script = steps;
      next = 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

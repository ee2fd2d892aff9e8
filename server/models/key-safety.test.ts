// Keys only from key variables, never followed to another host, never echoed back into stored
// or shown text (issue 29, "keys only from key variables").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { EpisodeConfig } from '@/server/engine';
import { testCatalog } from '@/server/engine/testing/catalog-fixture';
import { chatCompletion, InfraError } from './client';
import { isKeyVariable, parseConnection, resolveApiKey } from './connection';
import { playModelEpisode } from './test/play-model';
import { startFakeEndpoint, type FakeEndpoint } from './test/fake-endpoint';

const base = { name: 'c', baseUrl: 'http://127.0.0.1:8011/v1', model: 'm' };

describe('apiKeyEnv must name a key variable', () => {
  it('refuses DATABASE_URL, PATH and HOME when saving, with one sentence naming the rule', () => {
    for (const name of ['DATABASE_URL', 'PATH', 'HOME', 'ECOMRLVE_ADMIN_TOKEN'])
      expect(() => parseConnection({ ...base, apiKeyEnv: name }, {})).toThrow(
        `"apiKeyEnv": ${name} is not a key variable: use a name ending in _API_KEY, or one the operator lists in ECOMRLVE_MODEL_KEY_VARS`,
      );
  });

  it('accepts names ending in _API_KEY and the ones the operator lists', () => {
    expect(parseConnection({ ...base, apiKeyEnv: 'OPENAI_API_KEY' }, {}).apiKeyEnv).toBe('OPENAI_API_KEY');
    const env = { ECOMRLVE_MODEL_KEY_VARS: 'VLLM_TOKEN, OTHER' };
    expect(parseConnection({ ...base, apiKeyEnv: 'VLLM_TOKEN' }, env).apiKeyEnv).toBe('VLLM_TOKEN');
    expect(isKeyVariable('OTHER', env)).toBe(true);
    expect(isKeyVariable('DATABASE_URL', env)).toBe(false);
  });

  it('a stored connection naming a server variable reads nothing from it (checked again at call time)', () => {
    const stored = { apiKeyEnv: 'DATABASE_URL' };
    expect(() => resolveApiKey(stored, { DATABASE_URL: 'file:./prisma/dev.db' })).toThrow(/not a key variable/);
  });
});

const servers: Array<Server | FakeEndpoint> = [];
afterAll(() =>
  Promise.all(servers.map((s) => ('baseUrl' in s ? s.close() : new Promise((r) => s.close(() => r(null)))))),
);

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { server, port: (server.address() as AddressInfo).port };
}

describe('redirects are not followed', () => {
  it('a 307 from an allowed endpoint to a refused host is an error; the refused host is never reached', async () => {
    const hits: Array<string | undefined> = [];
    const target = await listen((req, res) => {
      hits.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'stolen' }, finish_reason: 'stop' }] }));
    });
    const allowed = await listen((_req, res) => {
      res.writeHead(307, { location: `http://localhost:${target.port}/v1/chat/completions` });
      res.end();
    });
    // only the first server's host:port is allowed; `localhost` (the redirect's host) is not
    const env = { ECOMRLVE_MODEL_HOSTS: `127.0.0.1:${allowed.port}`, LOCAL_API_KEY: 'sk-REDIRECT-1' };
    const connection = parseConnection(
      { ...base, baseUrl: `http://127.0.0.1:${allowed.port}/v1`, apiKeyEnv: 'LOCAL_API_KEY' },
      env,
    );
    const call = chatCompletion(connection, { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { env });
    await expect(call).rejects.toBeInstanceOf(InfraError);
    await expect(call).rejects.toThrow(/redirect \(HTTP 307\).*not followed/);
    expect(hits).toEqual([]);
  });
});

describe('an endpoint that echoes the key', () => {
  it('leaves no trace of the key in the records, the actions or the events', async () => {
    const marker = 'sk-ECHO-7d1f0a';
    const env = { ECHO_API_KEY: marker };
    const fake = await startFakeEndpoint([
      {
        kind: 'fn',
        fn: (req) => ({
          kind: 'reply',
          content: `my key is ${req.headers.authorization}`,
          toolCalls: [
            {
              name: 'submit_answer',
              arguments: JSON.stringify({ recommended_product_ids: [String(req.headers.authorization)] }),
            },
          ],
        }),
      },
    ]);
    servers.push(fake);
    const config: EpisodeConfig = { envId: 'PD', d: 0, seed: 1 };
    const connection = parseConnection(
      { name: 'echo', baseUrl: fake.baseUrl, model: 'fake', maxRetries: 0, apiKeyEnv: 'ECHO_API_KEY' },
      {},
    );
    const r = await playModelEpisode(config, testCatalog(), connection, { backoffMs: 1, env });
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${marker}`);
    const everything = JSON.stringify([r.records, r.actions, r.episode.events]);
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain(marker);
  });

  it('redacts streamed partials too', async () => {
    const marker = 'sk-STREAM-55aa';
    const fake = await startFakeEndpoint([{ kind: 'stream', pieces: ['key: sk-STR', 'EAM-55aa done'], delayMs: 1 }]);
    servers.push(fake);
    const connection = parseConnection(
      { name: 's', baseUrl: fake.baseUrl, model: 'fake', stream: true, apiKeyEnv: 'S_API_KEY' },
      {},
    );
    const partials: string[] = [];
    const reply = await chatCompletion(
      connection,
      { model: 'fake', messages: [{ role: 'user', content: 'hi' }] },
      { env: { S_API_KEY: marker }, onPartial: (p) => partials.push(p.content ?? '') },
    );
    expect(reply.content).toBe('key: [redacted] done');
    expect(JSON.stringify([reply, partials])).not.toContain(marker);
  });
});

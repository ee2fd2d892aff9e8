import { describe, expect, it } from 'vitest';
import { assertAllowedBaseUrl, parseConnection, redact, resolveApiKey } from './connection';
import { createMemoryConnectionStore } from './test/memory-connection-store';
import { toPublicError } from '@/server/lib/errors';

const base = { name: 'local', baseUrl: 'http://127.0.0.1:8011/v1', model: 'heuristic' };

describe('connections', () => {
  it('fills sampling defaults and keeps what was given', () => {
    const c = parseConnection({ ...base, temperature: 0.7, seed: 3, actionMode: 'json' }, {});
    expect(c).toMatchObject({
      temperature: 0.7,
      topP: 1,
      maxTokens: 1024,
      seed: 3,
      timeoutMs: 60_000,
      actionMode: 'json',
      maxRetries: 3,
    });
  });

  it('rejects an API key field with one sentence that does not echo the key', () => {
    const marker = 'sk-MARKER-123';
    expect(() => parseConnection({ ...base, apiKey: marker }, {})).toThrow(/never stored.*apiKeyEnv/);
    try {
      parseConnection({ ...base, apiKey: marker }, {});
    } catch (e) {
      expect(String(e)).not.toContain(marker);
    }
  });

  it('names the bad field', () => {
    expect(() => parseConnection({ ...base, temperature: 5 }, {})).toThrow(/"temperature"/);
    expect(() => parseConnection({ ...base, topp: 1 }, {})).toThrow(/unknown field\(s\) "topp"/);
    expect(() => parseConnection({ ...base, apiKeyEnv: 'not a name' }, {})).toThrow(
      /"apiKeyEnv": must be an environment variable name/,
    );
  });

  it('allows only loopback hosts by default', () => {
    for (const url of [
      'http://127.0.0.1:8011/v1',
      'http://localhost:11434/v1',
      'http://[::1]:8000/v1',
      'http://127.1.2.3/v1',
    ])
      expect(() => assertAllowedBaseUrl(url, {})).not.toThrow();
    for (const url of [
      'http://10.0.0.5:8000/v1',
      'https://api.openai.com/v1',
      'http://localhost.evil.com/v1',
      'http://127.0.0.1.nip.io/v1',
    ])
      expect(() => assertAllowedBaseUrl(url, {})).toThrow(/not allowed; allowed: loopback/);
  });

  it('follows ECOMRLVE_MODEL_HOSTS: host, host:port and *.suffix', () => {
    const env = { ECOMRLVE_MODEL_HOSTS: 'api.openai.com, gpu-box:8000, *.example.org' };
    expect(() => assertAllowedBaseUrl('https://api.openai.com/v1', env)).not.toThrow();
    expect(() => assertAllowedBaseUrl('http://gpu-box:8000/v1', env)).not.toThrow();
    expect(() => assertAllowedBaseUrl('http://gpu-box:9000/v1', env)).toThrow(/not allowed/);
    expect(() => assertAllowedBaseUrl('https://llm.example.org/v1', env)).not.toThrow();
    expect(() => assertAllowedBaseUrl('http://127.0.0.1:8011/v1', env)).toThrow(/not allowed/);
  });

  it('refuses other protocols and credentials in the URL', () => {
    expect(() => assertAllowedBaseUrl('file:///etc/passwd', {})).toThrow(/http or https/);
    expect(() => assertAllowedBaseUrl('http://user:pw@127.0.0.1/v1', {})).toThrow(/credentials/);
  });

  it('reads the key from its variable at call time, and names only the variable when missing', () => {
    const c = parseConnection({ ...base, apiKeyEnv: 'MY_API_KEY' }, {});
    expect(resolveApiKey(c, { MY_API_KEY: 'v1' })).toBe('v1');
    expect(resolveApiKey(c, { MY_API_KEY: 'v2' })).toBe('v2');
    expect(() => resolveApiKey(c, {})).toThrow(
      'environment variable MY_API_KEY (the API key) is not set on the server',
    );
    expect(resolveApiKey(parseConnection(base, {}), {})).toBeNull();
  });

  it('redacts every occurrence of a secret', () => {
    expect(redact('a sk-1 b sk-1', 'sk-1')).toBe('a [redacted] b [redacted]');
    expect(redact('nothing', null)).toBe('nothing');
  });

  it('the memory store validates, replaces by name and removes', async () => {
    const store = createMemoryConnectionStore({});
    await store.save(base);
    await store.save({ ...base, model: 'random' });
    expect((await store.list()).map((c) => c.model)).toEqual(['random']);
    await expect(store.save({ ...base, baseUrl: 'http://8.8.8.8/v1' })).rejects.toThrow(/not allowed/);
    expect(await store.remove('local')).toBe(true);
    expect(await store.get('local')).toBeNull();
  });

  it('is bad input wherever it surfaces: its sentence is the public error, not an internal one', () => {
    // a stored connection the host list no longer allows, as the model-turn route reads it
    let thrown: unknown;
    try {
      parseConnection({ ...base, baseUrl: 'http://example.com/v1' }, {});
    } catch (e) {
      thrown = e;
    }
    expect(toPublicError(thrown, () => {})).toEqual({
      code: 'BAD_INPUT',
      message: expect.stringMatching(/^base URL host "example.com" is not allowed/),
    });
  });
});

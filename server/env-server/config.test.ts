import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { DEFAULTS, helpText, loadConfig } from './config';

describe('env server config', () => {
  it('uses the defaults when nothing is set', () => {
    const c = loadConfig({}, [], 'cat-1');
    expect(c).toMatchObject({
      mode: 'simulation',
      port: DEFAULTS.port,
      maxSessions: DEFAULTS.maxSessions,
      catalogId: 'cat-1',
    });
    expect(c.adminToken).toBeUndefined();
  });

  it('reads environment variables, and flags win over them', () => {
    const env = {
      ECOMRLVE_ENV_MODE: 'production',
      ECOMRLVE_MAX_SESSIONS: '8',
      ECOMRLVE_IDLE_TIMEOUT_S: '30',
      ECOMRLVE_ADMIN_TOKEN: 'a',
    };
    const c = loadConfig(env, ['--max-sessions', '16', '--port', '0'], 'cat');
    expect(c).toMatchObject({ mode: 'production', maxSessions: 16, idleTimeoutMs: 30_000, port: 0, adminToken: 'a' });
  });

  it('records by default; ECOMRLVE_PERSIST or --persist turns it off', () => {
    expect(loadConfig({}, [], 'c').persist).toBe(true);
    expect(loadConfig({ ECOMRLVE_PERSIST: '0' }, [], 'c').persist).toBe(false);
    expect(loadConfig({ ECOMRLVE_PERSIST: 'off' }, ['--persist', 'on'], 'c').persist).toBe(true);
    expect(() => loadConfig({}, ['--persist', 'maybe'], 'c')).toThrow('--persist must be on or off, got "maybe"');
  });

  it('acknowledges what survives a process crash unless ECOMRLVE_DURABILITY or --durability asks for power loss too', () => {
    expect(loadConfig({}, [], 'c').durability).toBe('process');
    expect(loadConfig({ ECOMRLVE_DURABILITY: 'power' }, [], 'c').durability).toBe('power');
    expect(loadConfig({ ECOMRLVE_DURABILITY: 'power' }, ['--durability', 'process'], 'c').durability).toBe('process');
    expect(() => loadConfig({}, ['--durability', 'disk'], 'c')).toThrow(
      '--durability must be "process" or "power", got "disk"',
    );
  });

  it('runs one worker per core with persistence on, one with it off, unless ECOMRLVE_WORKERS or --workers says', () => {
    expect(loadConfig({}, [], 'c').workers).toBe(availableParallelism());
    expect(loadConfig({}, ['--persist', 'off'], 'c').workers).toBe(1);
    expect(loadConfig({}, ['--persist', 'off', '--workers', '2'], 'c').workers).toBe(2);
    expect(loadConfig({ ECOMRLVE_WORKERS: '2' }, [], 'c').workers).toBe(2);
    expect(loadConfig({ ECOMRLVE_WORKERS: '2' }, ['--workers', '3'], 'c').workers).toBe(3);
    expect(() => loadConfig({}, ['--workers', '0'], 'c')).toThrow('--workers must be an integer ≥ 1, got "0"');
  });

  it('knows no tuning options of the removed writer thread, deferred events or commit window', () => {
    for (const flag of ['--sqlite-writer', '--events', '--finished-logs', '--commit-window-ms', '--commit-min-ops'])
      expect(() => loadConfig({}, [flag, '1'], 'c')).toThrow(`unknown option "${flag}"`);
  });

  it('names the bad setting', () => {
    expect(() => loadConfig({ ECOMRLVE_MAX_SESSIONS: 'lots' }, [], 'c')).toThrow(
      'ECOMRLVE_MAX_SESSIONS must be an integer ≥ 1, got "lots"',
    );
    expect(() => loadConfig({}, ['--mode', 'prod'], 'c')).toThrow(
      '--mode must be "simulation" or "production", got "prod"',
    );
    expect(() => loadConfig({}, ['--prot', '1'], 'c')).toThrow('unknown option "--prot"');
    expect(() => loadConfig({}, ['--port'], 'c')).toThrow('--port needs a value');
  });

  it('refuses a port out of range in one sentence; --help lists every option with its variable', () => {
    expect(() => loadConfig({}, ['--port', '99999'], 'c')).toThrow(
      '--port must be a port number from 0 to 65535 (0 = any free port), got "99999"',
    );
    expect(() => loadConfig({ ECOMRLVE_ENV_PORT: '-1' }, [], 'c')).toThrow(/ECOMRLVE_ENV_PORT must be a port number/);
    const help = helpText();
    for (const line of ['--port <value>', 'ECOMRLVE_ENV_PORT', 'default 3141', '--max-sessions', '--help'])
      expect(help).toContain(line);
  });
});

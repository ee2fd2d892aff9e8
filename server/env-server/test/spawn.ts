// Starts the real serve:env entry point (scripts/serve-env.ts) as a child process on a free
// port and waits for its "listening on" line. Used by tests and bench:api.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyMigratedSqlite } from '../../lib/test/migrated-sqlite';

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function spawnEnvServer(args: string[] = [], env: Record<string, string> = {}): Promise<SpawnedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve-env.ts', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve:env did not start in 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done(); // already gone (e.g. killed)
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve:env exited with ${code}:\n${output}`));
    });
  });
}

/** A fresh SQLite database in a temp dir, migrated with the committed migrations. */
export function migratedTempDatabase(): { url: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ecomrlve-env-'));
  const file = path.join(dir, 'env.db');
  copyMigratedSqlite(file);
  const url = `file:${file}`;
  return { url, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// Starts the real serve:env entry point (scripts/serve-env.ts) as a child process on a free
// port and waits for its "listening on" line. Used by tests and bench:api.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
            if (child.exitCode !== null) return done();
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

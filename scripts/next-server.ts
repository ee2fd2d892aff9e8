// `next start` on its own fresh SQLite database, for the HTTP benchmarks (bench:web, bench:abuse).
// Needs `next build` first.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';

/**
 * Starts the server on `port` with the database `db` (wiped and migrated), runs `body`, stops the
 * server. BENCH_SERVER_LOG=<file> keeps the server's output (to see why a server went away).
 */
export async function withNextServer<T>(port: number, db: string, body: () => Promise<T>): Promise<T> {
  const env = {
    ...process.env,
    DATABASE_URL: `file:./${db}`,
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(db + suffix, { force: true });
  execFileSync('npx', ['prisma', 'migrate', 'deploy'], { env, stdio: 'ignore' });
  const server = spawn('npx', ['next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    env,
    stdio: process.env.BENCH_SERVER_LOG ? ['ignore', 'pipe', 'pipe'] : 'ignore',
    detached: true,
  });
  if (process.env.BENCH_SERVER_LOG) {
    const log = fs.createWriteStream(process.env.BENCH_SERVER_LOG);
    server.stdout?.pipe(log);
    server.stderr?.pipe(log);
    server.on('exit', (code, signal) => log.write(`[bench] server exited: code ${code}, signal ${signal}\n`));
  }
  try {
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/api/trpc/envs.list`).then(
        (r) => r.ok,
        () => false, // not up yet
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    return await body();
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
}

/** /proc/<pid>/ of the process listening on the port, or null. */
function serverProc(port: number): string | null {
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`]).toString();
  const pid = /pid=(\d+)/.exec(out)?.[1];
  return pid ? `/proc/${pid}` : null;
}

/** CPU seconds (user + system) the server has used: a figure the machine's load does not distort. */
export function serverCpuSeconds(port: number): number {
  const proc = serverProc(port);
  if (!proc) return NaN;
  const fields = fs.readFileSync(`${proc}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
}

/** The server's resident memory in MB. */
export function serverRssMb(port: number): number {
  const proc = serverProc(port);
  if (!proc) return NaN;
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`${proc}/status`, 'utf8'))?.[1]) / 1024;
}

/**
 * Where the server's resident memory is, in MB: file-backed pages (code, mapped files), the main
 * malloc heap ([heap]: native allocations of the server thread: SQLite, Prisma's engine, buffers)
 * and the other anonymous pages (V8's heaps, worker threads' malloc arenas, large buffers).
 */
export function serverMemorySplitMb(port: number): { file: number; mallocHeap: number; otherAnon: number } | null {
  const proc = serverProc(port);
  if (!proc) return null;
  const status = fs.readFileSync(`${proc}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  let heap = 0;
  let inHeap = false;
  for (const line of fs.readFileSync(`${proc}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inHeap = line.endsWith('[heap]');
    else if (inHeap && line.startsWith('Rss:')) heap += Number(/(\d+)/.exec(line)![1]);
  }
  const anon = kb('RssAnon');
  return { file: (kb('RssFile') + kb('RssShmem')) / 1024, mallocHeap: heap / 1024, otherAnon: (anon - heap) / 1024 };
}

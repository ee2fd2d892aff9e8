// How bench:inspector measures: percentiles, wall and CPU timers, the load average, and the
// SQLite checkpoint that follows an import (what its readers pay meanwhile).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { ENV_IDS } from '@/server/engine';
import type { SqlDb } from '@/server/db/sql';
import { listInputSchema } from '@/server/inspector/filters';
import { listEpisodes } from '@/server/episodes/queries/list';

export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
/** CPU seconds of this process's main thread alone (Linux; null elsewhere): an import's critical path. */
export const mainThreadCpu = (): number | null => {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return null;
  }
};
export const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return ((c.user + c.system) / 1e6).toFixed(1);
};
export const report = (name: string, xs: number[], target: number, cpu?: number[]) =>
  console.log(
    `${name.padEnd(34)} median ${pct(xs, 50).toFixed(1).padStart(7)} ms   p95 ${pct(xs, 95).toFixed(1).padStart(7)} ms   target p95 ≤ ${target} ms   ${pct(xs, 95) <= target ? 'OK' : 'OVER'}` +
      (cpu
        ? `\n${''.padEnd(34)} CPU median ${pct(cpu, 50).toFixed(1)} ms, p95 ${pct(cpu, 95).toFixed(1)} ms (wall waits for a core under load)`
        : ''),
  );
/** Runs a query; returns its wall and CPU milliseconds (SQLite runs on this thread: CPU is the query's own work). */
export async function timed(run: () => Promise<unknown>): Promise<[number, number]> {
  const t = performance.now();
  const c = process.cpuUsage();
  await run();
  const used = process.cpuUsage(c);
  return [performance.now() - t, (used.user + used.system) / 1000];
}

export const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/**
 * SQLite: what a reader pays while the WAL still holds the import (each page is looked up in the
 * WAL's index first), and after the checkpoint that copies it back.
 */
export async function measureCheckpoint(on: SqlDb, importEndedAt: number) {
  const reads = async () => {
    const xs: Array<[number, number]> = [];
    for (const env of ENV_IDS)
      xs.push(await timed(() => listEpisodes(on, listInputSchema.parse({ filter: { env: [env] }, sort: 'reward' }))));
    return `median ${pct(
      xs.map((x) => x[0]),
      50,
    ).toFixed(1)} ms wall, ${pct(
      xs.map((x) => x[1]),
      50,
    ).toFixed(1)} ms CPU`;
  };
  const during = await reads();
  const cp = on.sqlite!.pragma('wal_checkpoint(TRUNCATE)', { simple: false }) as Array<{
    log: number;
    checkpointed: number;
  }>;
  const doneAt = Date.now();
  const after = await reads();
  console.log(
    cp[0]
      ? `  WAL checkpoint (after the import): ${cp[0].checkpointed} of ${cp[0].log} pages copied back, done ${((doneAt - importEndedAt) / 1000).toFixed(1)} s after the import returned; a list query (one env, by reward) meanwhile: ${during}; after it: ${after}`
      : '  WAL checkpoint: left to the next commit (the WAL was small)',
  );
}

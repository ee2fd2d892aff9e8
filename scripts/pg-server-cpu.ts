// CPU seconds a PostgreSQL server has used (Linux /proc): its postmaster, the processes it runs
// now (backends, checkpointer, WAL writer…) and those that ended. A bench prints it beside its
// own CPU: on a loaded machine the wall clock says little, and the server's work is not ours.
import { readdirSync, readFileSync } from 'node:fs';
import type { SqlDb } from '@/server/db/sql';

const statOf = (pid: number | string) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), ended: Number(f[13]) + Number(f[14]) };
};

/** A reader of the server's CPU seconds so far, or null where /proc cannot tell. */
export async function pgServerCpu(db: SqlDb): Promise<(() => number) | null> {
  try {
    const { pid } = (await db.get<{ pid: number }>('SELECT pg_backend_pid() AS "pid"'))!;
    const postmaster = statOf(pid).ppid;
    return () => {
      const main = statOf(postmaster);
      let ticks = main.own + main.ended;
      for (const p of readdirSync('/proc'))
        if (/^\d+$/.test(p))
          try {
            const s = statOf(p);
            if (s.ppid === postmaster) ticks += s.own;
          } catch {
            /* ended meanwhile: counted in the postmaster's "ended" */
          }
      return ticks / 100; // clock ticks of 1/100 s
    };
  } catch {
    return null;
  }
}

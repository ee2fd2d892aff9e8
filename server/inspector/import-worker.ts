// The parsing workers of a bulk import (CLI and bench; the web upload of at most 25 MB parses
// on its own thread). JSON parsing, schema checks and serialising the rows were ~40 % of an
// import's CPU; in worker threads they overlap the writing thread's inserts, indexing and commit.
// Lines come back in file order, already as rows (strings clone cheaply), so the report and
// the all-or-nothing rules of import.ts are unchanged.
//
// PARSE_WORKERS workers take the files in turn (file i goes to worker i mod n): parsing was as
// long as writing, so one worker left the writing thread waiting. Each may run at most
// MAX_AHEAD batches ahead of the writing thread (it sleeps on a shared counter of the batches
// taken), so a worker never takes a core from the writer to pile up lines it cannot use yet.
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { ImportFile, ImportOptions } from './import';
import { ownToRecord, parseJsonl, readyEpisode, type ParsedLine } from './import-parse';

/** Worker threads parsing at once (the writing thread is the third). */
export const PARSE_WORKERS = 2;
/** A batch is posted once it holds about this many characters of rows (~1,000 lines a file of 50 MB). */
const BATCH_CHARS = 2_000_000;
/** Batches a worker may have posted that the writing thread has not taken yet. */
const MAX_AHEAD = 16;

interface Job {
  importParseJob: true;
  /** how many files follow, one message each (sent while the worker starts: cloning 50 MB takes ~0.1 s) */
  fileCount: number;
  rescore: ImportOptions['rescore'];
  runLabel: ImportOptions['runLabel'];
  /** [0]: batches the writing thread has taken from this worker */
  taken: Int32Array;
}
/** What a worker did, sent with its last batch (times are epoch ms, CPU in seconds). */
export interface WorkerTimes {
  startedAt: number;
  doneAt: number;
  /** CPU seconds of the worker thread (null off Linux) */
  cpu: number | null;
  /** time it slept because it was MAX_AHEAD batches ahead */
  blockedMs: number;
}
type Batch = { lines: ParsedLine[]; end: boolean; times?: WorkerTimes };

/** Where the time of a parse in workers went, as the writing thread saw it (epoch ms). */
export interface LineSourceStats {
  createdAt: number;
  firstLineAt: number | null;
  /** time the writing thread spent waiting for lines */
  waitMs: number;
  workers: WorkerTimes[];
}

/** Lines of each JSONL file, parsed in worker threads: `linesOf` must be asked for the files in order. */
export interface LineSource {
  linesOf(file: ImportFile): AsyncGenerator<ParsedLine>;
  close(): Promise<void>;
  stats?(): LineSourceStats;
}

/** CPU seconds of the calling thread (Linux /proc; null elsewhere). */
export function threadCpu(): number | null {
  try {
    const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in ticks of 1/100 s
  } catch {
    return null;
  }
}

export type WorkerOptions = Pick<ImportOptions, 'rescore' | 'runLabel'>;

/** One worker parsing its share of the files; `next` gives its batches in order. */
function startWorker(files: ImportFile[], opts: WorkerOptions, stats: LineSourceStats) {
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const job: Job = {
    importParseJob: true,
    fileCount: files.length,
    rescore: opts.rescore,
    runLabel: opts.runLabel,
    taken,
  };
  // The worker loads this TypeScript file through tsx, whether or not the parent runs under it.
  const worker = new Worker(
    `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`,
    { eval: true, workerData: job },
  );
  const queue: Batch[] = [];
  const sendFiles = () => files.forEach((f) => worker.postMessage(f));
  let failure: Error | null = null;
  let finished = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (b: Batch) => {
    if (b.times) {
      stats.workers.push(b.times);
      finished = true;
    }
    queue.push(b);
    notify();
  });
  worker.on('error', (e) => {
    failure = e;
    notify();
  });
  worker.on('exit', (code) => {
    if (!finished)
      failure ??= new Error(`the import's parsing worker stopped (exit code ${code}) before the last line`);
    notify();
  });
  return {
    async next(): Promise<Batch> {
      while (!queue.length) {
        if (failure) throw failure;
        const t = performance.now();
        await new Promise<void>((r) => (wake = r));
        stats.waitMs += performance.now() - t;
      }
      Atomics.add(taken, 0, 1);
      Atomics.notify(taken, 0);
      return queue.shift()!;
    },
    sendFiles,
    terminate: () => worker.terminate(),
  };
}

/** Starts workers parsing `files` (own-format lines are not re-scored by replay there: the caller decides). */
export function parseInWorker(files: ImportFile[], opts: WorkerOptions): LineSource {
  const stats: LineSourceStats = { createdAt: Date.now(), firstLineAt: null, waitMs: 0, workers: [] };
  const n = Math.min(PARSE_WORKERS, files.length);
  const workers = Array.from({ length: n }, (_, w) =>
    startWorker(
      files.filter((_, i) => i % n === w),
      opts,
      stats,
    ),
  );
  for (const w of workers) w.sendFiles(); // every worker is starting by now
  return {
    async *linesOf(file) {
      const i = files.indexOf(file);
      if (i < 0) throw new Error(`${file.name} was not given to the parsing workers`);
      for (;;) {
        const b = await workers[i % n].next();
        stats.firstLineAt ??= Date.now();
        yield* b.lines;
        if (b.end) return;
      }
    },
    close: async () => void (await Promise.all(workers.map((w) => w.terminate()))),
    stats: () => stats,
  };
}

/** Characters a parsed line carries to the writing thread (what a batch is sized by). */
const charsOf = (p: ParsedLine) =>
  'ready' in p
    ? p.ready.prepared.events.reduce((n, e) => n + e.payload.length, 0) + p.ready.prepared.row.hiddenGoal.length
    : 'chat' in p
      ? 10_000
      : 100;

/** In a worker: parse its files as they arrive, post the lines in batches and one `end` per file. */
async function run({ fileCount, rescore, runLabel, taken }: Job) {
  const arrived: ImportFile[] = [];
  let wake: (() => void) | null = null;
  const onFile = (f: ImportFile) => {
    arrived.push(f);
    wake?.();
  };
  parentPort!.on('message', onFile);
  const startedAt = Date.now();
  let posted = 0;
  let blockedMs = 0;
  const post = (b: Batch) => {
    while (posted - Atomics.load(taken, 0) >= MAX_AHEAD) {
      const t = performance.now();
      Atomics.wait(taken, 0, posted - MAX_AHEAD, 1000); // until the writing thread takes one
      blockedMs += performance.now() - t;
    }
    parentPort!.postMessage(b);
    posted++;
  };
  const noCatalog = () => {
    throw new Error('the parsing worker does not replay episodes');
  };
  for (let i = 0; i < fileCount; i++) {
    while (!arrived.length) await new Promise<void>((r) => (wake = r));
    const f = arrived.shift()!;
    const own = { getCatalog: noCatalog, rescore, runLabel };
    let lines: ParsedLine[] = [];
    let chars = 0;
    const ready = (ep: Parameters<typeof ownToRecord>[0]) => {
      const r = readyEpisode(ownToRecord(ep, own, f.name, false));
      return { ready: r };
    };
    for (const p of parseJsonl(f.text, ready)) {
      lines.push(p);
      chars += charsOf(p);
      if (chars >= BATCH_CHARS) {
        post({ lines, end: false });
        lines = [];
        chars = 0;
      }
    }
    const last = i === fileCount - 1;
    post({
      lines,
      end: true,
      times: last ? { startedAt, doneAt: Date.now(), cpu: threadCpu(), blockedMs } : undefined,
    });
  }
  parentPort!.off('message', onFile);
}

if (!isMainThread && (workerData as Job | null)?.importParseJob) void run(workerData as Job);

// The parsing worker of a bulk import (CLI and bench; the web upload of at most 25 MB parses
// on its own thread). JSON parsing, schema checks and serialising the rows were ~40 % of an
// import's CPU; in a worker thread they overlap the writing thread's inserts and commit.
// Lines come back in file order, already as rows (strings clone cheaply), so the report and
// the all-or-nothing rules of import.ts are unchanged.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { ImportFile, ImportOptions } from './import';
import { ownToRecord, parseJsonl, readyEpisode, type ParsedLine } from './import-parse';
import { pgSearchRows } from './pg-batch';

interface Job {
  importParseJob: true;
  files: ImportFile[];
  rescore: ImportOptions['rescore'];
  runLabel: ImportOptions['runLabel'];
  pgSearch?: boolean;
}
type Batch = { lines: ParsedLine[]; end: boolean };

/** `pgSearch`: the import goes into PostgreSQL, whose search rows the worker makes too (pg-batch.ts). */
export type WorkerOptions = Pick<ImportOptions, 'rescore' | 'runLabel'> & { pgSearch?: boolean };

/** Lines of each JSONL file, parsed in a worker thread: `linesOf` must be asked for the files in order. */
export interface LineSource {
  linesOf(file: ImportFile): AsyncGenerator<ParsedLine>;
  close(): Promise<void>;
}

/** Starts a worker parsing `files` (own-format lines are not re-scored by replay there: the caller decides). */
export function parseInWorker(files: ImportFile[], opts: WorkerOptions): LineSource {
  const job: Job = {
    importParseJob: true,
    files,
    rescore: opts.rescore,
    runLabel: opts.runLabel,
    pgSearch: opts.pgSearch,
  };
  // The worker loads this TypeScript file through tsx, whether or not the parent runs under it.
  const worker = new Worker(
    `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`,
    { eval: true, workerData: job },
  );
  const queue: Batch[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (b: Batch) => {
    queue.push(b);
    notify();
  });
  worker.on('error', (e) => {
    failure = e;
    notify();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the import's parsing worker stopped (exit code ${code}) before the last line`);
    notify();
  });
  return {
    async *linesOf() {
      for (;;) {
        while (!queue.length) {
          if (failure) throw failure;
          await new Promise<void>((r) => (wake = r));
        }
        const b = queue.shift()!;
        yield* b.lines;
        if (b.end) return;
      }
    },
    close: async () => void (await worker.terminate()),
  };
}

/** In the worker: parse every file, post the lines in batches and one `end` per file. */
function run({ files, rescore, runLabel, pgSearch }: Job) {
  const noCatalog = () => {
    throw new Error('the parsing worker does not replay episodes');
  };
  for (const f of files) {
    const own = { getCatalog: noCatalog, rescore, runLabel };
    let lines: ParsedLine[] = [];
    const ready = (ep: Parameters<typeof ownToRecord>[0]) => {
      const r = readyEpisode(ownToRecord(ep, own, f.name, false));
      if (pgSearch) r.prepared.pgSearch = pgSearchRows(r.prepared);
      return { ready: r };
    };
    for (const p of parseJsonl(f.text, ready)) {
      lines.push(p);
      if (lines.length === 20) {
        parentPort!.postMessage({ lines, end: false } satisfies Batch);
        lines = [];
      }
    }
    parentPort!.postMessage({ lines, end: true } satisfies Batch);
  }
}

if (!isMainThread && (workerData as Job | null)?.importParseJob) run(workerData as Job);

// The SQLite writer's thread (sqlite-writer.ts, openSqliteWriterThread): one connection, one
// transaction per batch posted by the serving thread, and an answer once it has committed.
// Since round 12 also the finished episodes' logs the idle worker hands over (their rows, built
// by the idle worker, inserted on this connection: one writer connection per worker).
import { parentPort, workerData } from 'node:worker_threads';
import type { RecordOp } from './recorder';
import { openSqliteWriter, type LogRows, type SqliteWriterOptions, type WriterThreadAnswer } from './sqlite-writer';

const { url, options } = workerData as { url: string; options: SqliteWriterOptions };
const writer = openSqliteWriter(url, options);

type Message = { id: number; ops: RecordOp[] } | { id: number; logRows: LogRows[] } | 'close';

async function handle(m: Message): Promise<void> {
  if (m === 'close') {
    writer.close();
    parentPort!.close();
    return;
  }
  let answer: WriterThreadAnswer;
  try {
    if ('ops' in m) {
      writer.write(m.ops);
      answer = { id: m.id, ok: true };
    } else answer = { id: m.id, ok: true, stored: await writer.storeLogRows(m.logRows) };
  } catch (e) {
    const { message, code } = e as Error & { code?: unknown };
    answer = { id: m.id, ok: false, message, code: typeof code === 'string' ? code : null };
  }
  parentPort!.postMessage(answer);
}

// One message at a time, in order: a batch never starts inside a log write's transaction.
let handled: Promise<void> = Promise.resolve();
parentPort!.on('message', (m: Message) => {
  handled = handled.then(() => handle(m));
});

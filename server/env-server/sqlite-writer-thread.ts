// The SQLite writer's thread (sqlite-writer.ts, openSqliteWriterThread): one connection, one
// transaction per batch posted by the serving thread, and an answer once it has committed.
import { parentPort, workerData } from 'node:worker_threads';
import type { RecordOp } from './recorder';
import { openSqliteWriter, type SqliteWriterOptions, type WriterThreadAnswer } from './sqlite-writer';

const { url, options } = workerData as { url: string; options: SqliteWriterOptions };
const writer = openSqliteWriter(url, options);

parentPort!.on('message', (m: { id: number; ops: RecordOp[] } | 'close') => {
  if (m === 'close') {
    writer.close();
    parentPort!.close();
    return;
  }
  let answer: WriterThreadAnswer;
  try {
    writer.write(m.ops);
    answer = { id: m.id, ok: true };
  } catch (e) {
    const { message, code } = e as Error & { code?: unknown };
    answer = { id: m.id, ok: false, message, code: typeof code === 'string' ? code : null };
  }
  parentPort!.postMessage(answer);
});

// npm run episodes:import -- FILE_OR_DIR… [--no-rescore]
// Imports the project's episode JSONL, OpenAI chat transcripts (JSONL) and reference trace
// files (a directory's README.md is used to split steps). One line of report per episode;
// exit code 1 when any line was skipped. DATABASE_URL chooses the database.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CATALOG_ID, getCatalog } from '@/server/catalogs';
import { openSqlDb } from '@/server/db/sql';
import { importFiles, type ImportFile } from '@/server/inspector/import';

const argv = process.argv.slice(2);
const rescore = !argv.includes('--no-rescore');
const paths = argv.filter((a) => !a.startsWith('--'));
if (paths.length === 0) {
  console.error('usage: npm run episodes:import -- FILE_OR_DIR… [--no-rescore]');
  process.exit(2);
}
const files: ImportFile[] = [];
for (const p of paths) {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) {
    console.error(`no such file or directory: ${p}`);
    process.exit(2);
  }
  const names = st.isDirectory()
    ? readdirSync(p)
        .filter((n) => /\.(jsonl|json|md)$/i.test(n))
        .map((n) => path.join(p, n))
    : [p];
  for (const n of names) files.push({ name: path.basename(n), text: readFileSync(n, 'utf8') });
}
const db = openSqlDb();
const t0 = performance.now();
const report = await importFiles(db, files, {
  getCatalog,
  defaultCatalogId: DEFAULT_CATALOG_ID,
  rescore,
});
const ms = performance.now() - t0;
for (const r of report) console.log(`${r.ok ? 'ok  ' : 'SKIP'} ${r.file}:${r.line}  ${r.id ?? ''}  ${r.message}`);
const ok = report.filter((r) => r.ok).length;
console.log(`${ok} imported, ${report.length - ok} skipped in ${(ms / 1000).toFixed(1)} s`);
await db.close();
process.exit(ok === report.length ? 0 : 1);

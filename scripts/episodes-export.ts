// npm run episodes:export -- [--ids a,b] [--filter "env=CART&dMin=6&pass=fail"] [--chat] [--out FILE]
// npm run episodes:export -- [--ids …|--filter …] --openenv --out DIR
// Writes the project's episode JSONL (or chat messages for SFT with --chat) to stdout or FILE;
// with --openenv, OpenEnv collect's DIR/results.jsonl and DIR/metadata.json (docs/inspector.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openSqlDb } from '@/server/db/sql';
import { exportJsonl } from '@/server/inspector/export';
import { listInputFromParams } from '@/server/inspector/filters';
import { episodeIds } from '@/server/episodes/queries/list';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i < 0 ? undefined : argv[i + 1];
};
const db = openSqlDb();
const ids = flag('ids')
  ? flag('ids')!.split(',')
  : await episodeIds(db, listInputFromParams(new URLSearchParams(flag('filter') ?? '')));
const openenv = argv.includes('--openenv');
const text = await exportJsonl(db, ids, openenv ? 'openenv' : argv.includes('--chat') ? 'chat' : 'episodes');
const out = flag('out');
if (openenv) {
  if (!out) throw new Error('--openenv writes a directory: give it as --out DIR');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'results.jsonl'), text);
  const n = text ? text.trimEnd().split('\n').length : 0;
  writeFileSync(
    path.join(out, 'metadata.json'),
    JSON.stringify(
      { env: 'EcomRLVE-GYM', n, source: 'npm run episodes:export -- --openenv', ids: ids.length },
      null,
      2,
    ),
  );
  console.error(`wrote ${n} episodes to ${path.join(out, 'results.jsonl')}`);
} else if (out) {
  writeFileSync(out, text);
  console.error(`wrote ${text ? text.trimEnd().split('\n').length : 0} episodes to ${out}`);
} else process.stdout.write(text);
await db.close();

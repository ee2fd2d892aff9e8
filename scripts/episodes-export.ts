// npm run episodes:export -- [--ids a,b] [--filter "env=CART&dMin=6&pass=fail"] [--chat] [--out FILE]
// Writes the project's episode JSONL (or chat messages for SFT with --chat) to stdout or FILE.
import { writeFileSync } from 'node:fs';
import { openSqlDb } from '@/server/db/sql';
import { exportJsonl } from '@/server/inspector/export';
import { listInputFromParams } from '@/server/inspector/filters';
import { episodeIds } from '@/server/inspector/query';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i < 0 ? undefined : argv[i + 1];
};
const db = openSqlDb();
const ids = flag('ids')
  ? flag('ids')!.split(',')
  : await episodeIds(db, listInputFromParams(new URLSearchParams(flag('filter') ?? '')));
const text = await exportJsonl(db, ids, argv.includes('--chat') ? 'chat' : 'episodes');
const out = flag('out');
if (out) {
  writeFileSync(out, text);
  console.error(`wrote ${text ? text.trimEnd().split('\n').length : 0} episodes to ${out}`);
} else process.stdout.write(text);
await db.close();

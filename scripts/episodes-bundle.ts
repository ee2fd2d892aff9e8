// npm run episodes:bundle -- <episode-id …> | --run NAME | --filter "env=CART&pass=fail"  [--with-goal] [--title T] --out demo.html
// Writes one self-contained HTML file that replays the episodes (docs/inspector.md, "Demo bundle").
import { writeFileSync } from 'node:fs';
import { getCatalog } from '@/server/catalogs';
import { bundlePayload, MAX_BUNDLE_EPISODES } from '@/server/inspector/bundle';
import { bundleHtml } from '@/server/inspector/bundle-html';
import { openSqlDb } from '@/server/db/sql';
import { createEpisodeData } from '@/server/inspector/episode-data';
import { listInputFromParams } from '@/server/inspector/filters';
import { episodeIds } from '@/server/episodes/queries/list';

const argv = process.argv.slice(2);
const valued = new Set(['--run', '--filter', '--out', '--title']);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i < 0 ? undefined : argv[i + 1];
};
const positional = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1] ?? ''));
const out = opt('out');
const run = opt('run');
const filter = opt('filter');
if (!out || [positional.length > 0, run !== undefined, filter !== undefined].filter(Boolean).length !== 1) {
  console.error(
    'usage: npm run episodes:bundle -- <episode-id …> | --run NAME | --filter "env=CART&pass=fail"  [--with-goal] [--title T] --out demo.html',
  );
  process.exit(2);
}
const db = openSqlDb();
const params = new URLSearchParams(filter ?? '');
if (run !== undefined) params.set('run', run);
const ids = positional.length ? positional : await episodeIds(db, listInputFromParams(params), MAX_BUNDLE_EPISODES + 1);
if (ids.length === 0 || ids.length > MAX_BUNDLE_EPISODES) {
  console.error(
    ids.length === 0
      ? 'no episodes matched: nothing written'
      : `a demo bundle holds at most ${MAX_BUNDLE_EPISODES} episodes and more matched: narrow the filter (e.g. env=CART&dMin=6)`,
  );
  process.exit(1);
}
const payload = await bundlePayload(db, createEpisodeData(db, getCatalog), ids, {
  withGoal: argv.includes('--with-goal'),
  title: opt('title'),
});
writeFileSync(out, bundleHtml(payload));
console.error(
  `wrote ${payload.episodes.length} episode(s) to ${out}${payload.withGoal ? ' (with the hidden goal)' : ''}` +
    (payload.episodes.length < ids.length ? `; ${ids.length - payload.episodes.length} unknown id(s) left out` : ''),
);
await db.close();

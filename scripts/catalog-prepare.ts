// Builds the disk cache of synthetic catalog presets ahead of time, so the server only ever
// loads them (a request never builds a catalog).
//   npm run catalog:prepare -- synthetic-s1-n2000000 [more ids]     (no id: every preset)
import { listCatalogs, prepareSyntheticCatalog } from '@/server/catalogs';

const ids = process.argv.slice(2).filter((a) => a !== '--');
const targets =
  ids.length > 0
    ? ids
    : listCatalogs()
        .filter((c) => c.kind === 'synthetic')
        .map((c) => c.id);
for (const id of targets) {
  const t0 = performance.now();
  try {
    prepareSyntheticCatalog(id, (m) => console.log(`  ${m}`));
    console.log(`${id}: ready (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    console.error(`${id}: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}

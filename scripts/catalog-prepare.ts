// Builds the disk cache of synthetic catalog presets ahead of time, so the server only ever
// loads them (a request never builds a catalog).
//   npm run catalog:prepare -- synthetic-s1-n2000000 [more ids]     (no id: every preset)
import { DEFAULT_SYNTHETIC, listCatalogs } from '@/server/catalogs';
import { loadOrCreateSyntheticCatalog } from '@/server/engine/catalog/cache';

const presets = listCatalogs().filter((c) => c.kind === 'synthetic');
const ids = process.argv.slice(2).filter((a) => a !== '--');
for (const id of ids.length > 0 ? ids : presets.map((c) => c.id)) {
  const t0 = performance.now();
  const preset = presets.find((c) => c.id === id);
  if (!preset) {
    console.error(`"${id}" is not a synthetic catalog of the registry; known: ${presets.map((c) => c.id).join(', ')}`);
    process.exitCode = 1;
    continue;
  }
  loadOrCreateSyntheticCatalog({ seed: DEFAULT_SYNTHETIC.seed, size: preset.size, log: (m) => console.log(`  ${m}`) });
  console.log(`${id}: ready (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

// npm run golden:record — plays the golden episodes (server/engine/golden/golden.ts) on the
// current engine and writes their fixtures. Run it only when behaviour changes on purpose
// (a reward or observation change), and say so in the commit; see docs/performance.md.

import fs from 'node:fs';
import path from 'node:path';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import type { Catalog } from '../server/engine/catalog/types';
import { compactTranscript, goldenCases, recordCase, type GoldenFile } from '../server/engine/golden/golden';

export const GOLDEN_FILE = path.join('server', 'engine', 'golden', 'episodes.json');
/** Full transcripts kept for: the oracle at this d on the 1k catalog, one per env. */
const FULL_D = 6;

const catalogs = new Map<number, Catalog>();
const catalogOf = (size: number) => {
  let c = catalogs.get(size);
  if (!c) catalogs.set(size, (c = createSyntheticCatalog({ seed: 1, size })));
  return c;
};

const t0 = performance.now();
const file: GoldenFile = {
  note: 'Recorded by `npm run golden:record` on purpose; replayed by golden.test.ts. Re-record only when behaviour changes deliberately.',
  records: [],
  full: [],
};
for (const c of goldenCases()) {
  const { record, transcript } = recordCase(c, catalogOf(c.catalogSize));
  if (c.catalogSize === 1_000 && c.agent === 'oracle' && c.config.d === FULL_D)
    file.full.push({ index: file.records.length, transcript: compactTranscript(transcript) });
  file.records.push(record);
}
const json = `{\n"note": ${JSON.stringify(file.note)},\n"records": [\n${file.records.map((r) => JSON.stringify(r)).join(',\n')}\n],\n"full": [\n${file.full.map((f) => JSON.stringify(f)).join(',\n')}\n]\n}\n`;
fs.writeFileSync(GOLDEN_FILE, json);
const mean = file.records.reduce((s, r) => s + r.reward, 0) / file.records.length;
console.log(
  `${file.records.length} episodes (${file.full.length} full) → ${GOLDEN_FILE}, ${(json.length / 1024).toFixed(0)} KiB, mean reward ${mean.toFixed(3)}, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

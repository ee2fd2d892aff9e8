// npm run golden:record — plays the golden episodes (server/engine/golden/golden.ts) on the
// current engine and writes their fixtures. Run it only when behaviour changes on purpose
// (a reward or observation change), and say so in the commit; see docs/engine.md, "Golden episodes".
//
// npm run golden:record -- --evidence-only — for a change of evidence wording alone: replays
// the recorded actions (no agent), refuses to write unless every episode's behaviour digest
// (evidence left out), reward and termination are as recorded and the full transcripts are
// equal field by field outside the evidence, then rewrites the digests and full transcripts.

import fs from 'node:fs';
import path from 'node:path';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import type { Catalog } from '../server/engine/catalog/types';
import { withoutEvidence } from '../server/engine/evidence-replay';
import {
  behaviourDigestOf,
  compactTranscript,
  differingPaths,
  digestOf,
  goldenCases,
  recordCase,
  replayRecord,
  type GoldenFile,
} from '../server/engine/golden/golden';

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
const note =
  'Recorded by `npm run golden:record` on purpose; replayed by golden.test.ts. Re-record only when behaviour changes deliberately.';

function recordAll(): GoldenFile {
  const file: GoldenFile = { note, records: [], full: [] };
  for (const c of goldenCases()) {
    const { record, transcript } = recordCase(c, catalogOf(c.catalogSize));
    if (c.catalogSize === 1_000 && c.agent === 'oracle' && c.config.d === FULL_D)
      file.full.push({ index: file.records.length, transcript: compactTranscript(transcript) });
    file.records.push(record);
  }
  return file;
}

/** The recorded file with new evidence: refuses (exit 1) when anything but the evidence changed. */
function rewordEvidence(old: GoldenFile): GoldenFile {
  const problems: string[] = [];
  let changed = 0;
  const transcripts = old.records.map((r) => {
    const { episode, transcript } = replayRecord(r, catalogOf(r.catalogSize));
    const label = `${r.catalogSize} ${r.config.envId} d${r.config.d} seed ${r.config.seed} ${r.agent}`;
    if (!r.behaviourDigest) problems.push(`${label}: the recorded file has no behaviour digest`);
    else if (behaviourDigestOf(transcript) !== r.behaviourDigest) problems.push(`${label}: behaviour digest differs`);
    if (episode.breakdown?.total !== r.reward)
      problems.push(`${label}: reward ${episode.breakdown?.total} ≠ ${r.reward}`);
    if (episode.termination !== r.termination) problems.push(`${label}: ${episode.termination} ≠ ${r.termination}`);
    if (digestOf(transcript) !== r.digest) changed++;
    return transcript;
  });
  const full = old.full.map(({ index, transcript: before }) => {
    const now = compactTranscript(transcripts[index]);
    for (const p of differingPaths(withoutEvidence(before), withoutEvidence(now)))
      problems.push(`full transcript of record ${index}: ${p} differs outside the evidence`);
    return { index, transcript: now };
  });
  if (problems.length > 0) {
    console.error(`not an evidence-only change; nothing written:\n  ${problems.slice(0, 40).join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    `evidence-only: ${old.records.length} episodes replayed, 0 differences outside the evidence; the evidence changed in ${changed}`,
  );
  return {
    note: old.note,
    records: old.records.map((r, i) => ({ ...r, digest: digestOf(transcripts[i]) })),
    full,
  };
}

const evidenceOnly = process.argv.includes('--evidence-only');
const file = evidenceOnly
  ? rewordEvidence(JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile)
  : recordAll();
const json = `{\n"note": ${JSON.stringify(file.note)},\n"records": [\n${file.records.map((r) => JSON.stringify(r)).join(',\n')}\n],\n"full": [\n${file.full.map((f) => JSON.stringify(f)).join(',\n')}\n]\n}\n`;
fs.writeFileSync(GOLDEN_FILE, json);
const mean = file.records.reduce((s, r) => s + r.reward, 0) / file.records.length;
console.log(
  `${file.records.length} episodes (${file.full.length} full) → ${GOLDEN_FILE}, ${(json.length / 1024).toFixed(0)} KiB, mean reward ${mean.toFixed(3)}, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

// Replays the recorded golden episodes (golden.ts, episodes.json) and asserts the engine
// still produces the very same observations, event logs and rewards. A failure means
// behaviour changed: a bug in an optimisation, or a deliberate change that needs
// `npm run golden:record` (docs/engine.md, "Golden episodes").

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../catalog/synthetic';
import type { Catalog } from '../catalog/types';
import { behaviourDigestOf, compactTranscript, digestOf, goldenCases, replayRecord, type GoldenFile } from './golden';

const file = JSON.parse(fs.readFileSync(path.join(__dirname, 'episodes.json'), 'utf8')) as GoldenFile;
const catalogs = new Map<number, Catalog>();
const catalogOf = (size: number) => {
  let c = catalogs.get(size);
  if (!c) catalogs.set(size, (c = createSyntheticCatalog({ seed: 1, size })));
  return c;
};

describe('golden episodes', () => {
  it('cover the plan: every env, several d, three agents, three catalog sizes', () => {
    const recorded = file.records.map(
      (r) => `${r.catalogSize}|${r.config.envId}|${r.config.d}|${r.config.seed}|${r.agent}`,
    );
    const planned = goldenCases().map(
      (c) => `${c.catalogSize}|${c.config.envId}|${c.config.d}|${c.config.seed}|${c.agent}`,
    );
    expect(recorded).toEqual(planned);
    expect(new Set(file.records.map((r) => r.config.envId)).size).toBe(8);
    expect(file.full.length).toBeGreaterThanOrEqual(8);
    // the episodes exercise more than one outcome, so the digest guards rewards of both signs
    expect(file.records.some((r) => r.reward > 0.5)).toBe(true);
    expect(file.records.some((r) => r.reward < 0)).toBe(true);
  });

  it('full transcripts replay identically (first difference shown)', { timeout: 300_000 }, () => {
    for (const { index, transcript } of file.full) {
      const r = file.records[index];
      const now = compactTranscript(replayRecord(r, catalogOf(r.catalogSize)).transcript);
      expect(now.events, `${r.config.envId} d${r.config.d} events`).toEqual(transcript.events);
      expect(now.observations, `${r.config.envId} d${r.config.d} observations`).toEqual(transcript.observations);
      expect(now.breakdown, `${r.config.envId} d${r.config.d} breakdown`).toEqual(transcript.breakdown);
    }
  });

  // One test per catalog size, each with a long timeout: on a loaded shared machine the
  // 100k episodes alone can take a minute.
  for (const size of [...new Set(file.records.map((r) => r.catalogSize))]) {
    it(`every recorded episode on the ${size.toLocaleString('en-US')}-product catalog replays to the same reward, termination and digest`, () => {
      const diverged: string[] = [];
      for (const r of file.records.filter((x) => x.catalogSize === size)) {
        const { episode, transcript } = replayRecord(r, catalogOf(r.catalogSize));
        const label = `${r.catalogSize} ${r.config.envId} d${r.config.d} seed ${r.config.seed} ${r.agent}`;
        if (!episode.done) diverged.push(`${label}: not finished after ${r.actions.length} actions`);
        else if (episode.breakdown!.total !== r.reward)
          diverged.push(`${label}: reward ${episode.breakdown!.total} ≠ ${r.reward}`);
        else if (episode.termination !== r.termination)
          diverged.push(`${label}: ${episode.termination} ≠ ${r.termination}`);
        else if (behaviourDigestOf(transcript) !== r.behaviourDigest)
          diverged.push(`${label}: observations, events or reward numbers differ (evidence left out)`);
        else if (digestOf(transcript) !== r.digest) diverged.push(`${label}: only the evidence differs`);
      }
      expect(diverged).toEqual([]);
    }, 300_000);
  }
});

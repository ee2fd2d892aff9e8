// Engine v3 episodes still replay exactly (issue 27): engine v4 changed POLICY's rule book and
// the facts its customer states, so the POLICY and JOURNEY golden episodes as v3 recorded them,
// and the RETURN ones whose agent searched the policies (v3-play.json, taken from episodes.json
// before v4), replay under engineVersion 3 to the same reward, termination and digest (the
// reward revision is 3 for both engines).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from '../catalog/synthetic';
import type { Catalog } from '../catalog/types';
import { digestOf, replayRecord, type GoldenRecord } from './golden';

const file = JSON.parse(fs.readFileSync(path.join(__dirname, 'v3-play.json'), 'utf8')) as { records: GoldenRecord[] };
const catalogs = new Map<number, Catalog>();
const catalogOf = (size: number) => {
  let c = catalogs.get(size);
  if (!c) catalogs.set(size, (c = createSyntheticCatalog({ seed: 1, size })));
  return c;
};
const underV3 = (r: GoldenRecord): GoldenRecord => ({ ...r, config: { ...r.config, engineVersion: 3 } });

describe('engine v3 episodes v4 plays differently replay exactly under engineVersion 3', () => {
  it('cover POLICY, JOURNEY and RETURN, three agents and three catalogs', () => {
    expect(file.records).toHaveLength(87);
    expect(new Set(file.records.map((r) => r.config.envId))).toEqual(new Set(['POLICY', 'JOURNEY', 'RETURN']));
    expect(new Set(file.records.map((r) => r.catalogSize)).size).toBe(3);
  });

  // first: v4 episodes of the same rules leave nothing behind that a v3 replay would read
  it('the same actions under the current engine play differently (the v4 rule book is in force)', () => {
    const differs = file.records.filter((r) => {
      try {
        return digestOf(replayRecord(r, catalogOf(r.catalogSize)).transcript) !== r.digest;
      } catch {
        return true;
      }
    });
    expect(differs.length).toBeGreaterThan(20);
  });

  it('every one plays as recorded', { timeout: 300_000 }, () => {
    const diverged: string[] = [];
    for (const r of file.records) {
      const { episode, transcript } = replayRecord(underV3(r), catalogOf(r.catalogSize));
      const label = `${r.catalogSize} ${r.config.envId} d${r.config.d} seed ${r.config.seed} ${r.agent}`;
      if (episode.breakdown?.total !== r.reward) diverged.push(`${label}: reward ${episode.breakdown?.total}`);
      else if (episode.termination !== r.termination) diverged.push(`${label}: ${episode.termination}`);
      else if (digestOf(transcript) !== r.digest) diverged.push(`${label}: digest differs`);
    }
    expect(diverged).toEqual([]);
  });
});

// Longest files first, so the run does not end with one core idle while the other finishes a
// long file. Vitest orders by the durations it cached on the last run, but CI starts from a fresh
// machine without that cache and falls back to file size: in round 10's CI order the 81 s
// heuristic-dial (a 56-line file) started 3 min in and ran alone for the last ~25 s.
// Projects still run one after the other (engine files share a worker's module cache only while
// the next file in the queue is an engine file too).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per file in the quiet runs of 1 Dec 2026 15:37 (app) and 16:28 (engine); only the order matters. */
export const KNOWN_SLOW: Record<string, number> = {
  'server/engine/agents/heuristic-dial.test.ts': 51,
  'server/engine/envs/shared/pool-equivalence.test.ts': 37,
  'server/env-server/pg-workers.test.ts': 21,
  'scripts/ninth-env.test.ts': 16,
  'server/models/goal-scan.test.ts': 15,
  'server/inspector/pg-parity.test.ts': 10,
  'server/models/run-worker.test.ts': 9,
  'server/engine/agents/exploits/ceilings.test.ts': 7,
  'scripts/agent-server/parity.test.ts': 6,
  'server/env-server/served-crash.test.ts': 6,
  'server/engine/catalog/synthetic.test.ts': 6,
  'server/engine/catalog/search.test.ts': 4,
  'server/curriculum/worker-player.test.ts': 4,
  'server/engine/golden/golden.test.ts': 4,
  'server/env-server/recorder.test.ts': 3,
  'scripts/eval.test.ts': 3,
  'server/env-server/served.test.ts': 3,
};

export class SlowFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files); // projects in turn; within one, the cache's or size order
    const root = this.ctx.config.root + '/';
    const seconds = (f: TestSpecification) => KNOWN_SLOW[f.moduleId.replace(root, '')] ?? 0;
    const position = new Map(base.map((f, i) => [f, i]));
    const projectStart = new Map<string, number>();
    base.forEach((f, i) => {
      if (!projectStart.has(f.project.name)) projectStart.set(f.project.name, i);
    });
    return [...base].sort(
      (a, b) =>
        projectStart.get(a.project.name)! - projectStart.get(b.project.name)! ||
        seconds(b) - seconds(a) ||
        position.get(a)! - position.get(b)!,
    );
  }
}

// A run, named one way everywhere (filters, compare, links): "<kind>:<id>". Batch runs carry
// Episode.runId, curriculum runs Episode.curriculumRunId, trainer runs the player
// "trainer:<name>", imports Episode.runLabel. A key without a kind (links from before kinds)
// matches any of the id columns. Pure: the browser names runs with it too.

export const RUN_KINDS = ['batch', 'curriculum', 'trainer', 'import'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export interface RunOption {
  key: string;
  kind: RunKind;
  /** what a person reads: the run's name (batch, curriculum), trainer run name or import label */
  name: string;
}

export const runKey = (kind: RunKind, id: string) => `${kind}:${id}`;

export function parseRunKey(key: string): { kind: RunKind | null; id: string } {
  const i = key.indexOf(':');
  const kind = RUN_KINDS.find((k) => k === key.slice(0, i));
  return kind ? { kind, id: key.slice(i + 1) } : { kind: null, id: key };
}

/** The SQL condition (on Episode e) selecting one run's episodes. */
export function runCondition(key: string): { sql: string; args: string[] } {
  const { kind, id } = parseRunKey(key);
  switch (kind) {
    case 'batch':
      return { sql: 'e."runId" = ?', args: [id] };
    case 'curriculum':
      return { sql: 'e."curriculumRunId" = ?', args: [id] };
    case 'trainer':
      return { sql: 'e."player" = ?', args: [`trainer:${id}`] };
    case 'import':
      return { sql: 'e."runLabel" = ?', args: [id] };
    default:
      return { sql: '(e."runLabel" = ? OR e."curriculumRunId" = ? OR e."runId" = ?)', args: [id, id, id] };
  }
}

/** A batch run's default name: who played × envs × d range × seeds. */
export function defaultRunName(player: string, spec: { envs: string[]; ds: number[]; seeds: number[] }): string {
  const who = player.replace(/^model:/, '');
  const envs = spec.envs.length > 3 ? `${spec.envs.length} envs` : spec.envs.join('+');
  const lo = Math.min(...spec.ds);
  const hi = Math.max(...spec.ds);
  const d = lo === hi ? `d${lo}` : `d${lo}–${hi}`;
  return `${who} × ${envs} × ${d} × ${spec.seeds.length} seed${spec.seeds.length === 1 ? '' : 's'}`;
}

/** A stored batch run's name: the one given at start, else the default. */
export function batchRunName(player: string, specJson: string): string {
  const spec = JSON.parse(specJson) as { name?: string; envs: string[]; ds: number[]; seeds: number[] };
  return spec.name ?? defaultRunName(player, spec);
}

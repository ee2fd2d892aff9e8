// `npm run model-eval`'s parts: its arguments (one precise error per mistake), an episode played
// by the batch runs' loop (server/models/run-play.ts) as one row of the JSON file, the env × d table.

import { parseArgs } from 'node:util';
import { ENV_IDS, type Action, type EnvId } from '@/server/engine';
import { ACTION_MODES, type ActionMode } from '@/server/models/connection';
import type { PlayedRunEpisode } from '@/server/models/run-play';
import type { TurnInfra } from '@/server/models/table';
import type { RunCellStats } from '@/server/models/runs';

export const MODEL_EVAL_USAGE = `usage: npm run model-eval -- --model <baseURL|connection name|heuristic|random|oracle> [options]
  --model-name NAME       model field when --model is a URL (default: the first of GET /v1/models)
  --connections FILE      JSON list of saved connections to look --model up in (default .models/connections.json)
  --envs all|PD,SUB,…     environments (default all)
  --d 0..12 | 0,4,8 | 3   difficulties (default 0..12)
  --seeds N               seeds per cell (default 5), from --seed-start (default 1)
  --concurrency N         requests in flight (default 4)
  --mode tools|json       action mode (default tools)
  --api-key-env NAME      environment variable that holds the API key
  --timeout-ms N --retries N --stream --records --out FILE --catalog-size N`;

export class UsageError extends Error {}

export interface ModelEvalOptions {
  model: string;
  modelName?: string;
  connections?: string;
  envs: EnvId[];
  ds: number[];
  seeds: number;
  seedStart: number;
  concurrency: number;
  mode?: ActionMode;
  apiKeyEnv?: string;
  timeoutMs?: number;
  retries?: number;
  stream: boolean;
  records: boolean;
  out?: string;
  catalogSize: number;
  help: boolean;
}

function parseRange(text: string): number[] {
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  if (range) {
    const [lo, hi] = [Number(range[1]), Number(range[2])];
    if (lo > hi) throw new UsageError(`--d ${text}: the range is empty (${lo} > ${hi})`);
    return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  }
  if (!/^\d+(,\d+)*$/.test(text)) throw new UsageError(`--d must look like 0..12, 0,4,8 or 3, got "${text}"`);
  return [...new Set(text.split(',').map(Number))];
}

const STRING_FLAGS = ['model', 'model-name', 'connections', 'envs', 'd', 'mode', 'api-key-env', 'out'] as const;
const INT_FLAGS = { seeds: 1, 'seed-start': 0, concurrency: 1, 'timeout-ms': 100, retries: 0, 'catalog-size': 100 };
const BOOL_FLAGS = ['stream', 'records', 'help'] as const;

function parseEnvs(v: string): EnvId[] {
  if (v === 'all') return [...ENV_IDS];
  const envs = v.split(',').map((e) => e.trim().toUpperCase());
  const bad = envs.filter((e) => !(ENV_IDS as readonly string[]).includes(e));
  if (bad.length)
    throw new UsageError(`--envs: unknown environment(s) ${bad.join(', ')}; known: ${ENV_IDS.join(', ')}`);
  return envs as EnvId[];
}

export function parseModelEvalArgs(argv: string[]): ModelEvalOptions {
  const options = Object.fromEntries([
    ...[...STRING_FLAGS, ...Object.keys(INT_FLAGS)].map((f) => [f, { type: 'string' as const }]),
    ...BOOL_FLAGS.map((f) => [f, { type: 'boolean' as const, ...(f === 'help' ? { short: 'h' } : {}) }]),
  ]);
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as typeof values;
  } catch (e) {
    const m = (e as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(m);
    const valueless = /Option '(--[^']+)'/.exec(m);
    throw new UsageError(
      unknown ? `unknown option "${unknown[1]}"` : valueless ? `${valueless[1].split(' ')[0]} needs a value` : m,
    );
  }
  const str = (f: (typeof STRING_FLAGS)[number]) => values[f] as string | undefined;
  const int = (f: keyof typeof INT_FLAGS, fallback?: number) => {
    const v = values[f] as string | undefined;
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < INT_FLAGS[f])
      throw new UsageError(`--${f} must be a whole number ≥ ${INT_FLAGS[f]}, got "${v}"`);
    return Number(v);
  };
  const mode = str('mode');
  if (mode !== undefined && !(ACTION_MODES as readonly string[]).includes(mode))
    throw new UsageError(`--mode must be tools or json, got "${mode}"`);
  const o: ModelEvalOptions = {
    model: str('model') ?? '',
    modelName: str('model-name'),
    connections: str('connections'),
    envs: parseEnvs(str('envs') ?? 'all'),
    ds: parseRange(str('d') ?? '0..12'),
    seeds: int('seeds', 5)!,
    seedStart: int('seed-start', 1)!,
    concurrency: int('concurrency', 4)!,
    mode: mode as ActionMode | undefined,
    apiKeyEnv: str('api-key-env'),
    timeoutMs: int('timeout-ms'),
    retries: int('retries'),
    stream: values.stream === true,
    records: values.records === true,
    out: str('out'),
    catalogSize: int('catalog-size', 20_000)!,
    help: values.help === true,
  };
  if (!o.help && !o.model) throw new UsageError('--model is required');
  return o;
}

export interface EvalRow {
  envId: EnvId;
  d: number;
  seed: number;
  status: 'completed' | 'infra_error';
  /** null unless completed */
  reward: number | null;
  pass: boolean | null;
  termination: string | null;
  turns: number;
  infra?: TurnInfra;
  /** The actions stepped (replayable with the engine's replayEpisode). */
  actions: Array<Action | string>;
  /** Each turn's request and reply (--records). */
  records?: unknown[];
}

/** A played episode as a row; null when the run was cancelled before it ended (not counted). */
export function evalRow(played: PlayedRunEpisode, cancelled: boolean, records: boolean): EvalRow | null {
  if (cancelled && !played.done) return null;
  const { cell, infra, breakdown } = played;
  const completed = !infra && played.done && breakdown !== null;
  return {
    envId: cell.envId,
    d: cell.d,
    seed: cell.seed,
    status: completed ? 'completed' : 'infra_error',
    reward: completed ? breakdown.total : null,
    pass: completed ? breakdown.isCorrect : null,
    termination: played.termination,
    turns: played.turn,
    ...(infra ? { infra } : {}),
    actions: played.actions.map((a) => (a.format === 'json' ? (JSON.parse(a.raw) as Action) : a.raw)),
    ...(records ? { records: played.actions.map((a) => a.modelRecord && JSON.parse(a.modelRecord)) } : {}),
  };
}

/** env × d table: "mean reward / pass %" per cell; infrastructure failures in their own table. */
export function formatTable(stats: RunCellStats[]): string {
  const envs = [...new Set(stats.map((s) => s.envId))];
  const ds = [...new Set(stats.map((s) => s.d))].sort((a, b) => a - b);
  const at = (e: string, d: number) => stats.find((s) => s.envId === e && s.d === d);
  const W = 11;
  const header = `${'env'.padEnd(8)}${ds.map((d) => `d=${d}`.padStart(W)).join('')}`;
  const row = (e: string, cell: (s?: RunCellStats) => string) =>
    `${e.padEnd(8)}${ds.map((d) => cell(at(e, d)).padStart(W)).join('')}`;
  const score = (s?: RunCellStats) =>
    s?.meanReward == null ? '—' : `${s.meanReward.toFixed(2)} ${Math.round(s.passRate! * 100)}%`;
  const lines = ['mean reward and pass rate (scored episodes only)', header, ...envs.map((e) => row(e, score))];
  const infra = stats.reduce((s, c) => s + c.infraFailures, 0);
  if (infra === 0) return [...lines, '', 'infrastructure failures: none'].join('\n');
  lines.push('', `infrastructure failures (not scored): ${infra}`, header);
  return [...lines, ...envs.map((e) => row(e, (s) => String(s?.infraFailures ?? 0)))].join('\n');
}

export function progressBar(done: number, total: number, infra: number, seconds: number, width = 30): string {
  const filled = total ? Math.round((done / total) * width) : width;
  const rate = seconds > 0 ? done / seconds : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${total ? Math.floor((done / total) * 100) : 100}%  ${rate.toFixed(1)} ep/s  infra ${infra}`;
}

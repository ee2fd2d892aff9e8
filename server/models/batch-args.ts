// Arguments of `npm run model-eval`, parsed into plain options (one precise error per mistake).

import { ENV_IDS, type EnvId } from '@/server/engine';
import { ACTION_MODES, type ActionMode } from './connection';

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

export function parseModelEvalArgs(argv: string[]): ModelEvalOptions {
  const o: ModelEvalOptions = {
    model: '',
    envs: [...ENV_IDS],
    ds: parseRange('0..12'),
    seeds: 5,
    seedStart: 1,
    concurrency: 4,
    stream: false,
    records: false,
    catalogSize: 20_000,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const int = (min: number) => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) < min)
        throw new UsageError(`${flag} must be a whole number ≥ ${min}, got "${v}"`);
      return Number(v);
    };
    switch (flag) {
      case '--model':
        o.model = value();
        break;
      case '--model-name':
        o.modelName = value();
        break;
      case '--connections':
        o.connections = value();
        break;
      case '--envs': {
        const v = value();
        if (v === 'all') o.envs = [...ENV_IDS];
        else {
          const envs = v.split(',').map((e) => e.trim().toUpperCase());
          const bad = envs.filter((e) => !(ENV_IDS as readonly string[]).includes(e));
          if (bad.length)
            throw new UsageError(`--envs: unknown environment(s) ${bad.join(', ')}; known: ${ENV_IDS.join(', ')}`);
          o.envs = envs as EnvId[];
        }
        break;
      }
      case '--d':
        o.ds = parseRange(value());
        break;
      case '--seeds':
        o.seeds = int(1);
        break;
      case '--seed-start':
        o.seedStart = int(0);
        break;
      case '--concurrency':
        o.concurrency = int(1);
        break;
      case '--mode': {
        const v = value();
        if (!(ACTION_MODES as readonly string[]).includes(v))
          throw new UsageError(`--mode must be tools or json, got "${v}"`);
        o.mode = v as ActionMode;
        break;
      }
      case '--api-key-env':
        o.apiKeyEnv = value();
        break;
      case '--timeout-ms':
        o.timeoutMs = int(100);
        break;
      case '--retries':
        o.retries = int(0);
        break;
      case '--stream':
        o.stream = true;
        break;
      case '--records':
        o.records = true;
        break;
      case '--out':
        o.out = value();
        break;
      case '--catalog-size':
        o.catalogSize = int(100);
        break;
      case '--help':
      case '-h':
        o.help = true;
        break;
      default:
        throw new UsageError(`unknown option "${flag}"`);
    }
  }
  if (!o.help && !o.model) throw new UsageError('--model is required');
  return o;
}

// The eval CLI's flags. Every mistake gets one precise sentence (the CLI exits 2).

import { EXPLOIT_NAMES } from '../agents/exploits';
import type { EnvId } from '../types';
import { parseCount, parseDifficulties, parseEnvs, UsageError } from './grid';

export const BUILT_IN_AGENTS = ['oracle', 'heuristic', 'random', 'empty'] as const;
/** The built-in agents, then the goal-blind exploits (agents/exploits/). */
export const AGENT_NAMES: readonly string[] = [...BUILT_IN_AGENTS, ...EXPLOIT_NAMES];
export type AgentName = string;

export interface EvalOptions {
  agent: AgentName;
  envs: EnvId[];
  ds: number[];
  seeds: number;
  seedStart: number;
  catalogSize: number;
  agentSeed: number;
  out: string | null;
  help: boolean;
}

export const USAGE = `usage: npm run eval -- --agent oracle|heuristic|random|empty|<exploit> [options]
  --agent NAME         the built-in agent to play (required); exploits: ${EXPLOIT_NAMES.join(', ')}
  --envs LIST          all (default) or a comma list, e.g. CART,PD
  --d SPEC             difficulties: 0..12 (default), 0,3,6 or a mix like 0..2,10
  --seeds N            seeds per (env, d) cell (default 20)
  --seed-start S       first seed (default 0): seeds S..S+N-1
  --catalog-size N     synthetic catalog size, seed 1 (default 20000)
  --agent-seed N       seed of the random agent (default 0)
  --out FILE           JSON output (default .eval/<agent>-<timestamp>.json)
  --help               this text`;

const FLAGS = ['agent', 'envs', 'd', 'seeds', 'seed-start', 'catalog-size', 'agent-seed', 'out', 'help'] as const;

export function parseEvalArgs(argv: readonly string[], available: readonly EnvId[]): EvalOptions {
  const raw = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"; flags start with -- (see --help)`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!(FLAGS as readonly string[]).includes(name))
      throw new UsageError(`unknown flag --${name}; known flags: ${FLAGS.map((f) => `--${f}`).join(', ')}`);
    if (raw.has(name)) throw new UsageError(`--${name} was given twice`);
    if (name === 'help') {
      raw.set(name, 'true');
      continue;
    }
    const value: string | undefined = eq < 0 ? argv[i + 1] : arg.slice(eq + 1);
    if (eq < 0) {
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      i++;
    }
    raw.set(name, value);
  }
  const help = raw.has('help');
  const agent = raw.get('agent');
  if (!help && agent === undefined) throw new UsageError(`--agent is required: one of ${AGENT_NAMES.join(', ')}`);
  if (agent !== undefined && !AGENT_NAMES.includes(agent))
    throw new UsageError(`--agent "${agent}" is not a built-in agent; choose one of ${AGENT_NAMES.join(', ')}`);
  const out = raw.get('out');
  if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
  return {
    agent: (agent ?? 'heuristic') as AgentName,
    envs: parseEnvs(raw.get('envs') ?? 'all', available),
    ds: parseDifficulties(raw.get('d') ?? '0..12'),
    seeds: parseCount('--seeds', raw.get('seeds') ?? '20', 1),
    seedStart: parseCount('--seed-start', raw.get('seed-start') ?? '0', 0),
    catalogSize: parseCount('--catalog-size', raw.get('catalog-size') ?? '20000', 100),
    agentSeed: parseCount('--agent-seed', raw.get('agent-seed') ?? '0', 0),
    out: out ?? null,
    help,
  };
}

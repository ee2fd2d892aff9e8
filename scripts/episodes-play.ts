// npm run episodes:play -- --agent heuristic --envs CART --d 6..7 --seeds 20 [--seed-start 0] [--out FILE]
// Plays a built-in agent and writes the episodes as JSONL in the inspector's format (import
// them on /episodes or with npm run episodes:import). Default catalog: the built-in 20k.
import { writeFileSync } from 'node:fs';
import { listEnvs } from '@/server/engine';
import { agentByName } from '@/server/engine/eval/agents';
import { AGENT_NAMES, type AgentName } from '@/server/engine/eval/args';
import { parseCount, parseDifficulties, parseEnvs, UsageError } from '@/server/engine/eval/grid';
import type { EnvId } from '@/server/engine/types';
import { getCatalog } from '@/server/catalogs';
import { playToLine } from '@/server/inspector/play';

function args(argv: string[]) {
  const m = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--')) throw new UsageError(`unexpected argument "${argv[i]}"`);
    if (argv[i + 1] === undefined) throw new UsageError(`${argv[i]} needs a value`);
    m.set(argv[i].slice(2), argv[i + 1]);
  }
  return m;
}

try {
  const a = args(process.argv.slice(2));
  const agent = a.get('agent') as AgentName | undefined;
  if (!agent || !(AGENT_NAMES as readonly string[]).includes(agent))
    throw new UsageError(`--agent must be one of ${AGENT_NAMES.join(', ')}`);
  const envs = parseEnvs(
    a.get('envs') ?? 'all',
    listEnvs().map((e) => e.id as EnvId),
  );
  const ds = parseDifficulties(a.get('d') ?? '0..12');
  const seeds = parseCount('--seeds', a.get('seeds') ?? '10', 1);
  const seedStart = Number(a.get('seed-start') ?? 0);
  const catalog = getCatalog(a.get('catalog'));
  const lines: string[] = [];
  for (const envId of envs)
    for (const d of ds)
      for (let s = seedStart; s < seedStart + seeds; s++)
        lines.push(
          JSON.stringify(
            playToLine({ envId, d, seed: s }, catalog, agentByName(agent), agent, { runLabel: a.get('run') ?? null }),
          ),
        );
  const text = `${lines.join('\n')}\n`;
  const out = a.get('out');
  if (out) {
    writeFileSync(out, text);
    console.error(`wrote ${lines.length} episodes to ${out}`);
  } else process.stdout.write(text);
} catch (e) {
  console.error(e instanceof UsageError ? e.message : e);
  process.exit(e instanceof UsageError ? 2 : 1);
}

// npm run agent:serve -- --agent heuristic --port 8011 [--allow-oracle] [--catalog-size 20000] [--seed 0]
// Serves a built-in agent behind an OpenAI-compatible /v1/chat/completions on loopback.
// The oracle reads hidden goals, so it is served only with --allow-oracle (an admin's choice),
// and only to requests that carry the episode's config in the X-EcomRLVE-Episode header.

import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import { BUILT_IN_AGENTS, isBuiltInAgent, type BuiltInAgent } from '../server/models/agents';
import { createAgentServer, listen } from './agent-server/server';

const USAGE =
  'usage: npm run agent:serve -- --agent heuristic|random|oracle [--port 8011] [--allow-oracle] [--catalog-size 20000] [--seed 0] [--quiet]';

function parse(argv: string[]) {
  const options = {
    agent: 'heuristic' as BuiltInAgent,
    port: 8011,
    allowOracle: false,
    catalogSize: 20_000,
    seed: 0,
    quiet: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const int = (v: string) => {
      if (!/^\d+$/.test(v)) throw new Error(`${flag} must be a whole number, got "${v}"`);
      return Number(v);
    };
    if (flag === '--agent') {
      const a = value();
      if (!isBuiltInAgent(a)) throw new Error(`--agent must be one of ${BUILT_IN_AGENTS.join(', ')}, got "${a}"`);
      options.agent = a;
    } else if (flag === '--port') options.port = int(value());
    else if (flag === '--allow-oracle') options.allowOracle = true;
    else if (flag === '--catalog-size') options.catalogSize = int(value());
    else if (flag === '--seed') options.seed = int(value());
    else if (flag === '--quiet') options.quiet = true;
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else throw new Error(`unknown option "${flag}"`);
  }
  if (options.agent === 'oracle' && !options.allowOracle)
    throw new Error('the oracle reads hidden goals: add --allow-oracle to serve it');
  return options;
}

async function main() {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`agent:serve: ${(e as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const server = createAgentServer({
    agent: options.agent,
    port: options.port,
    allowOracle: options.allowOracle,
    randomSeed: options.seed,
    catalog: () => createSyntheticCatalog({ seed: 1, size: options.catalogSize }),
    log: options.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  const port = await listen(server, options.port);
  process.stderr.write(`agent:serve: ${options.agent} at http://127.0.0.1:${port}/v1 (model "${options.agent}")\n`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();

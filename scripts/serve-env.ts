// npm run serve:env [-- --port 3141 --mode production --max-sessions 256 --idle-timeout 600 --catalog synthetic-s1-n20000 --persist off]
// The trainer-facing env server (OpenEnv shape). Settings: docs/env-server.md.

import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { ConfigError, loadConfig } from '../server/env-server/config';
import { startEnvServer } from '../server/env-server/server';

async function main() {
  let config;
  try {
    config = loadConfig(process.env, process.argv.slice(2), DEFAULT_CATALOG_ID);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`serve:env: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  if (config.persist && !config.tokenSecret && /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? ''))
    console.error(
      'serve:env: ECOMRLVE_TOKEN_SECRET is not set, so this worker signs tokens with a secret of its own and other workers will refuse them; give every worker the same secret',
    );
  const t = performance.now();
  const catalog = getCatalog(config.catalogId);
  const server = await startEnvServer(config, catalog);
  // Tests and scripts read this line for the port (it may have been 0 = any free port).
  console.log(
    `env server listening on ${server.url} (mode ${config.mode}, catalog ${catalog.id} loaded in ${Math.round(performance.now() - t)} ms, admin ${config.adminToken ? 'on' : 'off'}, persistence ${config.persist ? 'on' : 'off'})`,
  );
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();

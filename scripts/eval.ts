// npm run eval -- --agent heuristic --envs all --d 0..12 --seeds 50
// Plays the grid in-process, prints env × d tables of mean reward and pass rate
// and per-env Spearman ρ(d, mean reward), and writes everything as JSON.
// The logic lives in server/engine/eval/; this file is only the CLI.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import { summarize } from '../server/engine/eval/aggregate';
import { agentByName } from '../server/engine/eval/agents';
import { parseEvalArgs, USAGE, type EvalOptions } from '../server/engine/eval/args';
import { expandGrid, UsageError } from '../server/engine/eval/grid';
import { runEval } from '../server/engine/eval/run';
import { formatSummary, progressLine } from '../server/engine/eval/table';
import { listEnvs } from '../server/engine/index';
import type { EnvId } from '../server/engine/types';

function parse(): EvalOptions {
  try {
    return parseEvalArgs(
      process.argv.slice(2),
      listEnvs().map((e) => e.id as EnvId),
    );
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`eval: ${e.message}\n${USAGE}\n`);
    process.exit(2);
  }
}

function progressReporter() {
  const tty = process.stderr.isTTY === true;
  let lastPrint = 0;
  return (done: number, total: number, seconds: number) => {
    if (tty) {
      if (done === total || seconds - lastPrint >= 0.1) {
        lastPrint = seconds;
        process.stderr.write(`\r${progressLine(done, total, seconds)}${done === total ? '\n' : ''}`);
      }
    } else if (done === total || seconds - lastPrint >= 5) {
      lastPrint = seconds;
      process.stderr.write(`${progressLine(done, total, seconds)}\n`);
    }
  };
}

function main() {
  const options = parse();
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const catalog = createSyntheticCatalog({ seed: 1, size: options.catalogSize });
  const cells = expandGrid(options.envs, options.ds, options.seedStart, options.seeds);
  process.stderr.write(
    `eval: ${options.agent} on ${options.envs.join(',')} × d ${options.ds.join(',')} × ${options.seeds} seeds = ${cells.length} episodes (catalog ${catalog.id})\n`,
  );
  const run = runEval(cells, catalog, agentByName(options.agent, options.agentSeed), progressReporter());
  const summary = summarize(run.rows);
  process.stdout.write(`${formatSummary(summary, { agent: options.agent, seconds: run.seconds })}\n`);
  const crashed = run.rows.filter((r) => r.error);
  if (crashed.length > 0) {
    process.stdout.write(`\n${crashed.length} episode(s) crashed (recorded as aborted, reward −1); first ones:\n`);
    for (const r of crashed.slice(0, 5)) process.stdout.write(`  ${r.env} d=${r.d} seed=${r.seed}: ${r.error}\n`);
  }
  const out = options.out ?? `.eval/${options.agent}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  mkdirSync(dirname(out), { recursive: true });
  const json = {
    agent: options.agent,
    catalog: catalog.id,
    options: { ...options, out },
    seconds: run.seconds,
    episodesPerSecond: run.rows.length / Math.max(run.seconds, 1e-9),
    crashes: run.crashes,
    summary,
    rows: run.rows,
  };
  writeFileSync(out, `${JSON.stringify(json, null, 1)}\n`);
  process.stderr.write(`eval: wrote ${out}\n`);
  if (crashed.length > 0) process.exitCode = 1;
}

// `npm run eval -- --model <name|baseURL|agent>` plays through a model connection: that is model-eval's job.
if (process.argv.slice(2).some((a) => a === '--model' || a.startsWith('--model='))) void import('./model-eval');
else main();

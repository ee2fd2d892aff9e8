// npm run model-eval -- --model <baseURL|connection name|heuristic|random|oracle> --envs all --d 0..12 --seeds 5 --concurrency 4
// Plays the grid with a connected model over HTTP: a progress bar, Ctrl-C to cancel (the
// episodes done so far are kept and summarised), an env × d table of mean reward and pass
// rate, and infrastructure failures counted apart. Everything is also written as JSON.
// A built-in agent name starts the agent server in this process on a free loopback port.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import { SERVED_AGENTS, type ServedAgent } from '../server/models/agent-server/agents';
import { createAgentServer, listen } from '../server/models/agent-server/server';
import { expandCells, formatBatchTable, progressBar, runBatch, summarizeBatch } from '../server/models/batch';
import { MODEL_EVAL_USAGE, parseModelEvalArgs, UsageError, type ModelEvalOptions } from '../server/models/batch-args';
import { parseConnection, type Connection, type ConnectionInput } from '../server/models/connection';
import type { Catalog } from '../server/engine';

function fail(message: string, code = 2): never {
  process.stderr.write(`model-eval: ${message}\n`);
  process.exit(code);
}

async function firstModelId(baseUrl: string): Promise<string> {
  try {
    const body = await (
      await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, { signal: AbortSignal.timeout(10_000) })
    ).json();
    const id = body?.data?.[0]?.id;
    if (typeof id === 'string') return id;
  } catch {
    // reported below
  }
  return fail(`could not read a model id from ${baseUrl}/models; pass --model-name`);
}

async function resolveConnection(
  o: ModelEvalOptions,
  catalog: () => Catalog,
): Promise<{ connection: Connection; close?: () => void }> {
  const overrides: Partial<ConnectionInput> = {
    ...(o.mode ? { actionMode: o.mode } : {}),
    ...(o.apiKeyEnv ? { apiKeyEnv: o.apiKeyEnv } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.retries !== undefined ? { maxRetries: o.retries } : {}),
    ...(o.stream ? { stream: true } : {}),
  };
  const make = (input: ConnectionInput) => {
    try {
      return parseConnection({ ...input, ...overrides });
    } catch (e) {
      return fail((e as Error).message);
    }
  };
  if (/^https?:\/\//.test(o.model))
    return {
      connection: make({ name: o.model, baseUrl: o.model, model: o.modelName ?? (await firstModelId(o.model)) }),
    };
  if ((SERVED_AGENTS as readonly string[]).includes(o.model)) {
    const agent = o.model as ServedAgent;
    const server = createAgentServer({ agent, port: 0, allowOracle: agent === 'oracle', catalog });
    const port = await listen(server, 0);
    // the episode header lets the oracle rebuild the episode and the random agent use the in-process seed stream
    return {
      connection: make({
        name: `agent:${agent}`,
        baseUrl: `http://127.0.0.1:${port}/v1`,
        model: agent,
        sendEpisodeHeader: agent !== 'heuristic',
      }),
      close: () => server.close(),
    };
  }
  const file = o.connections ?? '.models/connections.json';
  if (!existsSync(file))
    fail(
      `"${o.model}" is not a URL nor a built-in agent (${SERVED_AGENTS.join(', ')}), and there is no connections file ${file}`,
    );
  let saved: ConnectionInput[];
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return fail(`${file} is not JSON: ${(e as Error).message}`);
  }
  const found = Array.isArray(saved) ? saved.find((c) => c?.name === o.model) : undefined;
  if (!found) fail(`no connection named "${o.model}" in ${file}`);
  return { connection: make(found) };
}

async function main() {
  let o: ModelEvalOptions;
  try {
    o = parseModelEvalArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return fail(`${e.message}\n${MODEL_EVAL_USAGE}`);
  }
  if (o.help) return void process.stdout.write(`${MODEL_EVAL_USAGE}\n`);

  let catalogCache: Catalog | null = null;
  const catalog = () => (catalogCache ??= createSyntheticCatalog({ seed: 1, size: o.catalogSize }));
  const { connection, close } = await resolveConnection(o, catalog);
  const seeds = Array.from({ length: o.seeds }, (_, i) => o.seedStart + i);
  const cells = expandCells(o.envs, o.ds, seeds);
  process.stderr.write(
    `model-eval: ${connection.model} at ${connection.baseUrl} (${connection.actionMode} mode) on ${o.envs.join(',')} × d ${o.ds.join(',')} × ${o.seeds} seeds = ${cells.length} episodes, concurrency ${o.concurrency}\n`,
  );

  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nmodel-eval: cancelling (Ctrl-C again to quit at once)…\n');
    controller.abort();
  });
  const tty = process.stderr.isTTY === true;
  const started = performance.now();
  let infra = 0;
  let lastPrint = 0;
  const run = await runBatch(cells, catalog(), connection, {
    concurrency: o.concurrency,
    signal: controller.signal,
    keepRecords: o.records,
    onProgress: (done, total, row) => {
      if (row.status === 'infra_error') infra++;
      const seconds = (performance.now() - started) / 1000;
      if (done !== total && seconds - lastPrint < (tty ? 0.1 : 5)) return;
      lastPrint = seconds;
      process.stderr.write(
        `${tty ? '\r' : ''}${progressBar(done, total, infra, seconds)}${tty && done !== total ? '' : '\n'}`,
      );
    },
  });
  close?.();

  const summary = summarizeBatch(run.rows);
  process.stdout.write(
    `\n${connection.model}: ${run.rows.length} of ${cells.length} episodes${run.cancelled ? ' (cancelled)' : ''} in ${run.seconds.toFixed(1)} s\n${formatBatchTable(summary)}\n`,
  );
  const failures = run.rows.filter((r) => r.infra);
  for (const r of failures.slice(0, 5))
    process.stdout.write(
      `  ${r.envId} d=${r.d} seed=${r.seed} turn ${r.infra!.turn}: ${r.infra!.kind}: ${r.infra!.message}\n`,
    );

  const out =
    o.out ??
    `.model-eval/${connection.model.replace(/[^A-Za-z0-9._-]/g, '_')}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  mkdirSync(dirname(out), { recursive: true });
  const { name, baseUrl, model, actionMode, temperature, topP, maxTokens, seed } = connection;
  writeFileSync(
    out,
    `${JSON.stringify({ connection: { name, baseUrl, model, actionMode, temperature, topP, maxTokens, seed }, options: o, cancelled: run.cancelled, seconds: run.seconds, summary, rows: run.rows }, null, 1)}\n`,
  );
  process.stderr.write(`model-eval: wrote ${out}\n`);
  if (run.cancelled) process.exitCode = 130;
}

void main();

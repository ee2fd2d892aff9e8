// npm run model-eval -- --model <baseURL|connection name|heuristic|random|oracle> --envs all --d 0..12 --seeds 5 --concurrency 4
// Plays the grid with a connected model over HTTP, or a built-in agent in this process, through
// the batch runs' loop (server/models/run-play.ts): a progress bar, Ctrl-C to cancel (the
// episodes done so far are kept and summarised), an env × d table of mean reward and pass rate,
// and infrastructure failures counted apart. Everything is also written as JSON.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createSyntheticCatalog } from '../server/engine/catalog/synthetic';
import { parseConnection, type ConnectionInput } from '../server/models/connection';
import { MAX_EPISODE_BYTES, MAX_EPISODE_EVENTS } from '../server/episodes/service';
import { cellStats, expandCells, playRunCells } from '../server/models/run-play';
import { BUILT_IN_AGENTS, isBuiltInAgent } from '../server/models/agents';
import type { TablePlayer } from '../server/models/table';
import {
  evalRow,
  formatTable,
  MODEL_EVAL_USAGE,
  parseModelEvalArgs,
  progressBar,
  UsageError,
  type EvalRow,
  type ModelEvalOptions,
} from './model-eval-lib';

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

async function resolvePlayer(o: ModelEvalOptions): Promise<TablePlayer> {
  if (isBuiltInAgent(o.model)) return { kind: 'agent', agent: o.model };
  const overrides: Partial<ConnectionInput> = {
    ...(o.mode ? { actionMode: o.mode } : {}),
    ...(o.apiKeyEnv ? { apiKeyEnv: o.apiKeyEnv } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.retries !== undefined ? { maxRetries: o.retries } : {}),
    ...(o.stream ? { stream: true } : {}),
  };
  const make = (input: ConnectionInput): TablePlayer => {
    try {
      return { kind: 'model', connection: parseConnection({ ...input, ...overrides }) };
    } catch (e) {
      return fail((e as Error).message);
    }
  };
  if (/^https?:\/\//.test(o.model))
    return make({ name: o.model, baseUrl: o.model, model: o.modelName ?? (await firstModelId(o.model)) });
  const file = o.connections ?? '.models/connections.json';
  if (!existsSync(file))
    fail(
      `"${o.model}" is not a URL nor a built-in agent (${BUILT_IN_AGENTS.join(', ')}), and there is no connections file ${file}`,
    );
  let saved: ConnectionInput[];
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return fail(`${file} is not JSON: ${(e as Error).message}`);
  }
  const found = Array.isArray(saved) ? saved.find((c) => c?.name === o.model) : undefined;
  if (!found) fail(`no connection named "${o.model}" in ${file}`);
  return make(found);
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

  const player = await resolvePlayer(o);
  const name = player.kind === 'model' ? player.connection.model : player.agent;
  const seeds = Array.from({ length: o.seeds }, (_, i) => o.seedStart + i);
  const cells = expandCells(o.envs, o.ds, seeds);
  const where =
    player.kind === 'model'
      ? `${name} at ${player.connection.baseUrl} (${player.connection.actionMode} mode)`
      : `the built-in ${name} agent`;
  process.stderr.write(
    `model-eval: ${where} on ${o.envs.join(',')} × d ${o.ds.join(',')} × ${o.seeds} seeds = ${cells.length} episodes, concurrency ${o.concurrency}\n`,
  );

  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nmodel-eval: cancelling (Ctrl-C again to quit at once)…\n');
    controller.abort();
  });
  const tty = process.stderr.isTTY === true;
  const started = performance.now();
  const rows: EvalRow[] = [];
  let lastPrint = 0;
  const catalog = createSyntheticCatalog({ seed: 1, size: o.catalogSize });
  const job = {
    cells,
    player,
    catalogId: catalog.id,
    concurrency: o.concurrency,
    maxEvents: MAX_EPISODE_EVENTS,
    maxBytes: MAX_EPISODE_BYTES,
    batchSize: 1, // every episode reaches the progress bar as it ends
    flushMs: 0,
  };
  await playRunCells(job, catalog, controller.signal, async ([played]) => {
    const row = evalRow(played, controller.signal.aborted, o.records);
    if (!row) return;
    rows.push(row);
    const seconds = (performance.now() - started) / 1000;
    const done = rows.length === cells.length;
    if (!done && seconds - lastPrint < (tty ? 0.1 : 5)) return;
    lastPrint = seconds;
    const infra = rows.filter((r) => r.infra).length;
    process.stderr.write(
      `${tty ? '\r' : ''}${progressBar(rows.length, cells.length, infra, seconds)}${tty && !done ? '' : '\n'}`,
    );
  });
  const seconds = (performance.now() - started) / 1000;
  const cancelled = controller.signal.aborted;
  rows.sort((a, b) => cellIndex(cells, a) - cellIndex(cells, b));

  const summary = cellStats(rows.map((r) => ({ ...r, infra: Boolean(r.infra), pass: r.pass === true })));
  process.stdout.write(
    `\n${name}: ${rows.length} of ${cells.length} episodes${cancelled ? ' (cancelled)' : ''} in ${seconds.toFixed(1)} s\n${formatTable(summary)}\n`,
  );
  for (const r of rows.filter((r) => r.infra).slice(0, 5))
    process.stdout.write(
      `  ${r.envId} d=${r.d} seed=${r.seed} turn ${r.infra!.turn}: ${r.infra!.kind}: ${r.infra!.message}\n`,
    );

  const out =
    o.out ??
    `.model-eval/${name.replace(/[^A-Za-z0-9._-]/g, '_')}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  mkdirSync(dirname(out), { recursive: true });
  // a connection names its key's variable, never the key
  const connection = player.kind === 'model' ? player.connection : { agent: name };
  writeFileSync(out, `${JSON.stringify({ connection, options: o, cancelled, seconds, summary, rows }, null, 1)}\n`);
  process.stderr.write(`model-eval: wrote ${out}\n`);
  if (cancelled) process.exitCode = 130;
}

const cellIndex = (cells: Array<{ envId: string; d: number; seed: number }>, r: EvalRow) =>
  cells.findIndex((c) => c.envId === r.envId && c.d === r.d && c.seed === r.seed);

void main();

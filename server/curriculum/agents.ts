// The built-in agents a curriculum run can use: every Agent object the engine's public API
// exports (oracleAgent today; heuristic and random ones are picked up once exported).
import * as engine from '@/server/engine';
import type { Agent } from '@/server/engine';

function isAgent(value: unknown): value is Agent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Agent).name === 'string' &&
    typeof (value as Agent).act === 'function'
  );
}

/** Built-in agents by name, oracle first. */
export function builtInAgents(): Agent[] {
  const seen = new Map<string, Agent>();
  for (const value of Object.values(engine)) {
    if (isAgent(value) && !seen.has(value.name)) seen.set(value.name, value);
  }
  return [...seen.values()].sort((a, b) =>
    a.name === 'oracle' ? -1 : b.name === 'oracle' ? 1 : a.name.localeCompare(b.name),
  );
}

export function builtInAgentNames(): string[] {
  return builtInAgents().map((a) => a.name);
}

export function findAgent(name: string): Agent | undefined {
  return builtInAgents().find((a) => a.name === name);
}

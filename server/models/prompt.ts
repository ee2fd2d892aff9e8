// What a model is told: the system prompt (env, budgets, answer schema, and in
// JSON mode the action format and tools), and the env's tools as OpenAI `tools`
// derived from the same JSON Schemas the engine validates with.

import { listEnvs, toolSpecsFor, type EnvId, type EnvInfo, type ToolSpec } from '@/server/engine';
import type { ActionMode } from './connection';
import type { WireTool } from './openai';

/** The answer function of tool-calling mode (SPEC §1): its arguments are the `answer` object. */
export const ANSWER_TOOL = 'submit_answer';

export interface Budgets {
  T_max: number;
  B_tool: number;
}

/** OpenAI function names allow [A-Za-z0-9_-]: "catalog.search" → "catalog_search". */
export const wireToolName = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_');

let envInfos: Map<string, EnvInfo> | null = null;
export function envInfo(envId: string): EnvInfo {
  envInfos ??= new Map(listEnvs().map((e) => [e.id, e]));
  const info = envInfos.get(envId);
  if (!info) throw new Error(`unknown environment "${envId}"`);
  return info;
}

/** Wire name → engine name for the env's tools (answer tool excluded). */
export function engineToolName(envId: string, wireName: string): string {
  return envInfo(envId).tools.find((t) => wireToolName(t) === wireName) ?? wireName;
}

/** The answer tool's parameters: the env's answer schema plus `done`. */
export function answerParameters(envId: string): Record<string, unknown> {
  const schema = structuredClone(envInfo(envId).answerSchema) as { properties?: Record<string, unknown> };
  schema.properties = {
    ...schema.properties,
    done: {
      type: 'boolean',
      description:
        envId === 'JOURNEY'
          ? 'false answers the current request and the conversation goes on; true ends it (default true)'
          : 'true ends the conversation (default true)',
    },
  };
  return schema as Record<string, unknown>;
}

export function openAiTools(envId: EnvId): WireTool[] {
  const tools = toolSpecsFor(envId).map((t: ToolSpec): WireTool => ({
    type: 'function',
    function: { name: wireToolName(t.name), description: t.description, parameters: t.parameters },
  }));
  tools.push({
    type: 'function',
    function: {
      name: ANSWER_TOOL,
      description: `Give your answer for this ${envInfo(envId).name} task. ${envInfo(envId).description}`,
      parameters: answerParameters(envId),
    },
  });
  return tools;
}

// The last line of every system prompt; the agent server reads the env and budgets back from it.
const GYM_LINE = /^\[gym\] env=([A-Z]+) T_max=(\d+) B_tool=(\d+)$/m;
const gymLine = (envId: string, b: Budgets) => `[gym] env=${envId} T_max=${b.T_max} B_tool=${b.B_tool}`;

export function parseGymLine(system: string): { envId: EnvId; budgets: Budgets } | null {
  const m = GYM_LINE.exec(system);
  return m ? { envId: m[1] as EnvId, budgets: { T_max: Number(m[2]), B_tool: Number(m[3]) } } : null;
}

export function systemPrompt(envId: EnvId, budgets: Budgets, mode: ActionMode): string {
  const env = envInfo(envId);
  const lines = [
    'You are the shopping assistant of an online store, in a conversation with a customer.',
    `Task (${env.id}, ${env.name}): ${env.description}`,
    `You have at most ${budgets.T_max} turns. Each turn you write one message to the customer and may call up to ${budgets.B_tool} tool(s); their results come back before the customer's next message.`,
    'Only recommend product ids you have seen in tool results. Ask the customer when something you need is missing.',
  ];
  if (mode === 'tools') {
    lines.push(
      `Call the tools as functions. When you are ready, call ${ANSWER_TOOL} with the answer fields; done: true ends the conversation.`,
      'Your message text (the assistant content) is what the customer reads.',
    );
  } else {
    lines.push(
      'Reply with exactly one JSON object and nothing else:',
      '{"assistant_message": "<what the customer reads>", "tool_calls": [{"name": "<tool>", "args": {…}}], "answer": null}',
      `When you are ready, set "answer" to {"env": "${env.id}", "done": true, …answer fields}.`,
      `Answer fields (JSON Schema): ${JSON.stringify(env.answerSchema)}`,
      'Tools (name: description; JSON Schema of args):',
      ...toolSpecsFor(envId).map((t) => `- ${t.name}: ${t.description} ${JSON.stringify(t.parameters)}`),
      "Each following user message is a JSON object with the customer's message and your tool results.",
    );
  }
  lines.push(gymLine(envId, budgets));
  return lines.join('\n');
}

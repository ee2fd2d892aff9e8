// The optional LLM customer (SPEC §9, issue 9 item 8): a connected model rewrites the
// customer's templated message in natural wording, same facts. The rewriter is given the
// templated text and nothing else (no goal, no slots, no catalog), so it cannot say more than
// the template did. A rewrite that drops or adds a number or an id, or any failure of the call,
// keeps the template, and the reason is recorded. The caller stores the result; replay reads
// it back and never calls the model again.

import { callModel, requestBody, type CallRecord } from './client';
import { AppError } from '@/server/lib/errors';
import type { CustomerVoice } from '@/server/episodes/types';
import type { Connection, ConnectionStore, Env } from './connection';
import type { ChatRequest } from './openai';

export const CUSTOMER_VOICE_PROMPT = [
  'You rewrite one message of a customer talking to a shopping assistant, so it reads like a real person wrote it.',
  'Keep every fact exactly: every number, amount, date, id, brand, product name, colour, size and constraint.',
  'Add no fact, no product and no requirement; remove none. Keep the tone of the request (a complaint stays a complaint).',
  'Reply with the rewritten message only, no quotes and no commentary.',
].join(' ');

export interface CustomerRewriteResult {
  /** What the agent seat reads: the rewrite, or the template when it was kept. */
  text: string;
  by: string;
  /** Why the template was kept; absent when the rewrite is used. */
  fallback?: string;
  record: CallRecord;
}

// Facts a checker can see without understanding language: numbers (prices, quantities, dates)
// and id-like tokens (a letter-digit mix such as ORD-1042 or P000123).
const FACT = /[A-Za-z]*\d[\w-]*(?:[.,]\d+)*/g;
const facts = (text: string) => new Set((text.match(FACT) ?? []).map((f) => f.toLowerCase()));

/** Why a rewrite cannot stand for its template (null when it can). */
export function factCheck(template: string, rewrite: string): string | null {
  if (!rewrite.trim()) return 'the rewrite is empty';
  if (rewrite.length > template.length * 4 + 200) return 'the rewrite is far longer than the template';
  const before = facts(template);
  const after = facts(rewrite);
  const dropped = [...before].filter((f) => !after.has(f));
  const added = [...after].filter((f) => !before.has(f));
  if (dropped.length) return `the rewrite dropped ${dropped.map((f) => `"${f}"`).join(', ')}`;
  if (added.length) return `the rewrite added ${added.map((f) => `"${f}"`).join(', ')}`;
  return null;
}

const unquote = (s: string) =>
  s
    .trim()
    .replace(/^(["“])([\s\S]*)(["”])$/, '$2')
    .trim();

/** Rewrites one templated message. Never throws for the model's or the transport's failures. */
export async function rewriteCustomerText(
  connection: Connection,
  template: string,
  options: { env?: Env; backoffMs?: number; signal?: AbortSignal } = {},
): Promise<CustomerRewriteResult> {
  const messages: ChatRequest['messages'] = [
    { role: 'system', content: CUSTOMER_VOICE_PROMPT },
    { role: 'user', content: template },
  ];
  const call = await callModel(connection, requestBody({ ...connection, stream: false }, { messages }), options);
  const record: CallRecord = { request: call.request, attempts: call.attempts, reply: call.reply };
  const by = `model:${connection.name}`;
  if (!call.ok)
    return {
      text: template,
      by,
      fallback: `infrastructure failure (${call.infra.kind}): ${call.infra.message}`,
      record,
    };
  const rewrite = unquote(call.reply.content ?? '');
  const problem = factCheck(template, rewrite);
  return problem ? { text: template, by, fallback: problem, record } : { text: rewrite, by, record };
}

/** The episode service's LLM customer: voices are connection names, looked up on every use. */
export function createCustomerVoice(
  store: ConnectionStore,
  options: { env?: Env; backoffMs?: number } = {},
): CustomerVoice {
  return {
    async check(name) {
      if (!(await store.get(name)))
        throw new AppError('NOT_FOUND', `no model connection named "${name}" for the customer's voice`);
    },
    async rewrite(name, template) {
      const connection = await store.get(name);
      if (!connection)
        return { text: template, by: `model:${name}`, fallback: `the connection "${name}" no longer exists` };
      return rewriteCustomerText(connection, template, options);
    },
  };
}

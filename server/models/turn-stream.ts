// The playground's model turn as server-sent events: `partial` (the reply so far while the
// endpoint streams: display-only, never stepped), then exactly one `turn` (the committed
// TableTurn: the agent seat's view) or `error`. Only the agent seat's payloads and the model's
// own output travel here; nothing from the inspector seat (goal, seed, world) is ever streamed.

import { z } from 'zod';
import { AppError } from '@/server/lib/errors';
import { tablePlayerFor } from './access';
import type { PartialReply } from './client';
import type { ConnectionStore } from './connection';
import type { TablePlayer, TableTurn } from './table';

export const turnRequestSchema = z.strictObject({
  player: z.union([z.strictObject({ connection: z.string().min(1).max(100) }), z.strictObject({ agent: z.string() })]),
});

/** What the browser shows while a turn streams: the text, and each call's name and arguments so far. */
export interface TurnPartial {
  content: string;
  toolCalls: Array<{ name: string; arguments: string }>;
}

export type TurnEvent =
  | { type: 'partial'; partial: TurnPartial }
  | { type: 'turn'; turn: TableTurn }
  | { type: 'error'; error: string; code: string };

/**
 * Resolves the body's player (access.ts). A connected model is asked to stream (the playground
 * shows its turn as it arrives); batch runs and the CLI keep the connection's own `stream` setting.
 */
export async function resolveTablePlayer(
  store: ConnectionStore,
  body: unknown,
  requireAdminFor: (what: string) => void,
): Promise<TablePlayer> {
  const parsed = turnRequestSchema.safeParse(body);
  if (!parsed.success)
    throw new AppError(
      'BAD_INPUT',
      'the body must be {"player": {"connection": "<name>"}} or {"player": {"agent": …}}',
    );
  const p = parsed.data.player;
  const player = await tablePlayerFor(
    store,
    'agent' in p ? `agent:${p.agent}` : `connection:${p.connection}`,
    requireAdminFor,
  );
  return player.kind === 'model' ? { ...player, connection: { ...player.connection, stream: true } } : player;
}

const toPartial = (p: PartialReply): TurnPartial => ({
  content: p.content ?? '',
  toolCalls: p.toolCalls.map((c) => ({ name: c.function.name, arguments: c.function.arguments })),
});

const encoder = new TextEncoder();
export const sseFrame = (event: TurnEvent) =>
  encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

/**
 * Runs one turn and streams it. The turn is committed by `run` whatever happens to the
 * browser: a closed tab stops the partials, not the turn (as Pause lets the turn in flight end).
 */
export function turnEventStream(
  run: (onPartial: (p: PartialReply) => void) => Promise<TableTurn>,
  toError: (e: unknown) => { error: string; code: string },
): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: TurnEvent) => {
        if (!open) return;
        try {
          controller.enqueue(sseFrame(event));
        } catch {
          open = false; // the browser went away
        }
      };
      try {
        send({ type: 'turn', turn: await run((p) => send({ type: 'partial', partial: toPartial(p) })) });
      } catch (e) {
        send({ type: 'error', ...toError(e) });
      }
      if (open) controller.close();
      open = false;
    },
    cancel() {
      open = false;
    },
  });
}

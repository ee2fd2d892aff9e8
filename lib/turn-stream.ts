// The browser's side of a model turn streamed by /play/[episodeId]/model-turn: partials go to
// `onPartial` (display-only), then the committed turn or one precise error.
import type { TableTurn } from '@/server/models/table';
import type { TurnEvent, TurnPartial } from '@/server/models/turn-stream';

export type { TurnPartial };

export type StreamedTurn = { ok: true; turn: TableTurn } | { ok: false; error: string; code: string };

/** Reads a turn stream (the browser's side): partials to `onPartial`, then the turn or the error. */
export async function readTurnStream(
  body: ReadableStream<Uint8Array>,
  onPartial: (p: TurnPartial) => void,
): Promise<StreamedTurn> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .find((l) => l.startsWith('data: '))
        ?.slice(6);
      if (!data) continue;
      const event = JSON.parse(data) as TurnEvent;
      if (event.type === 'partial') onPartial(event.partial);
      else if (event.type === 'turn') return { ok: true, turn: event.turn };
      else return { ok: false, error: event.error, code: event.code };
    }
    if (done) return { ok: false, error: 'the turn stream ended before the turn was committed', code: 'INTERNAL' };
  }
}

/** Asks the server for one turn of the episode by `player` and reads the stream. */
export async function streamTurn(
  episodeId: string,
  player: { connection: string } | { agent: string },
  onPartial: (p: TurnPartial) => void,
): Promise<StreamedTurn> {
  let res: Response;
  try {
    res = await fetch(`/play/${encodeURIComponent(episodeId)}/model-turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ player }),
    });
  } catch (e) {
    return { ok: false, error: `the server could not be reached: ${(e as Error).message}`, code: 'INTERNAL' };
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string; code?: string } } | null;
    return { ok: false, error: body?.error?.message ?? `HTTP ${res.status}`, code: body?.error?.code ?? 'INTERNAL' };
  }
  return readTurnStream(res.body, onPartial);
}

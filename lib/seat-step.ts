// The browser's side of the agent seat's step route (POST /play/<id>/step, server/episodes/seat-step.ts).
import type { Action } from '@/server/engine/types';
import type { SeatView } from '@/server/episodes/seat';

/** A refused or failed step: the server's one precise message and its code. */
export class StepError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** One turn. The step key makes a retry (a lost answer) return the stored turn instead of taking another. */
export async function postStep(episodeId: string, action: Action | string, stepKey: string): Promise<SeatView> {
  const res = await fetch(`/play/${encodeURIComponent(episodeId)}/step`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action, stepKey }),
  });
  const body = (await res.json().catch(() => null)) as SeatView | { error?: { code: string; message: string } } | null;
  if (!res.ok || !body) {
    const err = body && 'error' in body ? body.error : undefined;
    throw new StepError(err?.message ?? `the step failed (HTTP ${res.status})`, err?.code ?? 'INTERNAL');
  }
  return body as SeatView;
}

/** Retry only what a step key makes safe to retry: a request that never got an answer (network error). */
export const retryLostStep = (failures: number, e: Error) => failures < 2 && !(e instanceof StepError);

// The browser's side of the agent seat: turns and reveals through tRPC's seat router under the
// episode's playground (/play/<id>/trpc, server/trpc/seat.ts), where its capability cookie goes.
import { TRPCClientError } from '@trpc/client';
import type { Action } from '@/server/engine/types';
import type { SeatView } from '@/server/episodes/seat';
import { makeSeatClient } from './trpc';

/** A refused or failed call: the server's one precise message and its code. */
export class StepError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const clients = new Map<string, ReturnType<typeof makeSeatClient>>();
const seat = (episodeId: string) => {
  let c = clients.get(episodeId);
  if (!c) clients.set(episodeId, (c = makeSeatClient(episodeId)));
  return c;
};

/** The server's answer to a refused call becomes a StepError; a lost request (no answer) stays as it is. */
async function call(run: Promise<unknown>): Promise<SeatView> {
  try {
    // JSON leaves an event's undefined fields out; the view is otherwise the server's SeatView
    return (await run) as SeatView;
  } catch (e) {
    const code = e instanceof TRPCClientError ? (e.data as { code?: string } | undefined)?.code : undefined;
    throw code ? new StepError((e as Error).message, code) : e;
  }
}

/** One turn. The step key makes a retry (a lost answer) return the stored turn instead of taking another. */
export const postStep = (episodeId: string, action: Action | string, stepKey: string): Promise<SeatView> =>
  call(
    seat(episodeId).seat.step.mutate({ id: episodeId, action: action as string | Record<string, unknown>, stepKey }),
  );

/** The player reveals the hidden goal on purpose (recorded; the episode leaves the statistics). */
export const revealGoal = (episodeId: string): Promise<SeatView> =>
  call(seat(episodeId).seat.reveal.mutate({ id: episodeId }));

/** Retry only what a step key makes safe to retry: a request that never got an answer (network error). */
export const retryLostStep = (failures: number, e: Error) => failures < 2 && !(e instanceof StepError);

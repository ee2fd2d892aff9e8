'use client';
// tRPC clients for the browser: the app's router at /api/trpc (TanStack Query integration), and
// the agent seat under an episode's playground (/play/<id>/trpc), where its capability cookie goes.
import { createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter, SeatMount } from '@/server/trpc';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: '/api/trpc' })] });
}

/** The agent seat of one episode, as its playground reaches it (one request per call: a turn is never batched). */
export function makeSeatClient(episodeId: string) {
  return createTRPCClient<SeatMount>({ links: [httpLink({ url: `/play/${encodeURIComponent(episodeId)}/trpc` })] });
}

export type Attempt<T> = { ok: true; data: T } | { ok: false; error: string };

/** A call's answer, or the server's one precise message when it refused or failed. */
export async function attempt<T>(call: Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, data: await call };
  } catch (e) {
    return { ok: false, error: (e as Error).message || 'the request failed' };
  }
}

'use client';
// /episodes: the list through tRPC with cursor pagination ("Load more").
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc';
import { Button, Card, CardHeader, Empty } from '@/components/ui/primitives';
import { EpisodeTable } from './EpisodeTable';

const PAGE = 25;

export function EpisodeBrowser() {
  const trpc = useTRPC();
  const q = useInfiniteQuery(
    trpc.episodes.list.infiniteQueryOptions({ limit: PAGE }, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
  );
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card>
      <CardHeader title="Episodes" right={<span className="text-xs text-slate-500">newest first</span>} />
      {q.isLoading ? (
        <Empty>Loading…</Empty>
      ) : q.isError ? (
        <Empty>Could not load episodes: {q.error.message}</Empty>
      ) : items.length === 0 ? (
        <Empty>No episodes yet. Start one on the home page.</Empty>
      ) : (
        <>
          <EpisodeTable episodes={items} />
          <div className="flex justify-center border-t border-slate-100 p-3">
            {q.hasNextPage ? (
              <Button onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
                {q.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            ) : (
              <span className="text-xs text-slate-400">{items.length} episode{items.length === 1 ? '' : 's'}</span>
            )}
          </div>
        </>
      )}
    </Card>
  );
}

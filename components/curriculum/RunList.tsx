'use client';
// The runs, newest first; the selected one is ?run=ID.
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc';
import { Badge, Card, CardHeader, cx, Empty } from '@/components/ui/primitives';

export function RunList({ selectedId }: { selectedId: string | null }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.curriculum.list.queryOptions());
  return (
    <Card>
      <CardHeader title="Runs" right={<span className="text-xs text-slate-500">newest first</span>} />
      {q.isLoading ? (
        <Empty>Loading…</Empty>
      ) : q.isError ? (
        <Empty>Could not load runs: {q.error.message}</Empty>
      ) : !q.data?.length ? (
        <Empty>No runs yet.</Empty>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="run-list">
          {q.data.map((r) => (
            <li key={r.id}>
              <Link
                href={`/curriculum?run=${r.id}`}
                className={cx(
                  'block px-4 py-2.5 hover:bg-slate-50',
                  r.id === selectedId && 'bg-sky-50 hover:bg-sky-50',
                )}
                data-testid="run-link"
                aria-current={r.id === selectedId ? 'page' : undefined}
              >
                <div className="flex items-center justify-between gap-2">
                  <span className="truncate text-sm font-medium text-slate-800">{r.name}</span>
                  <Badge tone="violet">{r.collection}</Badge>
                </div>
                <div className="mt-0.5 text-xs text-slate-500">
                  {r.episodes} episode{r.episodes === 1 ? '' : 's'} · max h {Math.max(...r.windows.map((w) => w.h))}
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

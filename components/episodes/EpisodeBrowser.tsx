'use client';
// /episodes: filters, search, sort and page all live in the URL; bulk compare/export/delete;
// charts for the current filter; import.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTRPC } from '@/lib/trpc';
import { useShortcuts } from '@/lib/keyboard';
import {
  listInputFromParams,
  listInputToParams,
  type EpisodeFilter,
  type ListInput,
  type SortColumn,
} from '@/server/inspector/filters';
import { Button, Card, CardHeader, Empty } from '@/components/ui/primitives';
import { EpisodeCharts } from '@/components/charts/EpisodeCharts';
import { InspectorTable } from './InspectorTable';
import { FilterBar } from './FilterBar';
import { BulkBar } from './BulkBar';
import { ImportPanel } from './ImportPanel';
import { ShortcutsOverlay } from './ShortcutsOverlay';

export function EpisodeBrowser() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const input = useMemo(() => listInputFromParams(new URLSearchParams(params.toString())), [params]);
  const listParams = listInputToParams(input).toString();
  const searchRef = useRef<HTMLInputElement>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [help, setHelp] = useState(false);
  const [charts, setCharts] = useState(params.get('charts') === '1');

  // The input we last navigated to: router.replace is asynchronous, so a second change made
  // before the URL updates must build on the first, not on the stale params.
  const latest = useRef(input);
  useEffect(() => {
    latest.current = input;
  }, [input]);
  const go = (next: Partial<ListInput>, extra: Record<string, string> = {}) => {
    latest.current = { ...latest.current, ...next };
    const p = listInputToParams(latest.current);
    for (const [k, v] of Object.entries(extra)) p.set(k, v);
    if (charts && !('charts' in extra)) p.set('charts', '1');
    router.replace(`${pathname}${p.size ? `?${p}` : ''}`, { scroll: false });
  };
  const setFilter = (update: (f: EpisodeFilter) => EpisodeFilter) =>
    go({ filter: update(latest.current.filter), page: 1 });
  const sortBy = (col: SortColumn) =>
    go({ sort: col, dir: input.sort === col && input.dir === 'desc' ? 'asc' : 'desc', page: 1 });

  const list = useQuery({ ...trpc.inspector.list.queryOptions(input), placeholderData: keepPreviousData });
  const facets = useQuery(trpc.inspector.facets.queryOptions());
  const chartData = useQuery({ ...trpc.inspector.charts.queryOptions({ filter: input.filter }), enabled: charts });
  const del = useMutation(
    trpc.inspector.delete.mutationOptions({
      onSuccess: () => {
        setSelected(new Set());
        qc.invalidateQueries({ queryKey: trpc.inspector.pathKey() });
      },
    }),
  );

  useShortcuts({
    '/': () => searchRef.current?.focus(),
    '?': () => setHelp((h) => !h),
    Escape: () => setHelp(false),
  });

  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / input.size));
  const onSelect = (ids: string[], on: boolean) =>
    setSelected((s) => {
      const n = new Set(s);
      for (const id of ids)
        if (on) n.add(id);
        else n.delete(id);
      return n;
    });

  return (
    <div className="space-y-4">
      <Card>
        <CardHeader
          title="Episodes"
          right={
            <div className="flex items-center gap-3 text-xs">
              <button
                type="button"
                className="text-sky-700 underline"
                onClick={() => {
                  setCharts((c) => !c);
                  const p = new URLSearchParams(params.toString());
                  if (charts) p.delete('charts');
                  else p.set('charts', '1');
                  router.replace(`${pathname}${p.size ? `?${p}` : ''}`, { scroll: false });
                }}
                data-testid="toggle-charts"
              >
                {charts ? 'hide charts' : 'show charts'}
              </button>
              <button
                type="button"
                className="text-slate-500 hover:text-slate-900"
                onClick={() => setHelp(true)}
                aria-label="keyboard shortcuts"
              >
                ?
              </button>
            </div>
          }
        />
        <FilterBar filter={input.filter} facets={facets.data} onChange={setFilter} searchRef={searchRef} />
        <ImportPanel />
        {charts && (chartData.data ? <EpisodeCharts data={chartData.data} /> : <Empty>Loading charts…</Empty>)}
        <BulkBar
          selected={[...selected]}
          total={list.data ? total : null}
          capped={list.data?.capped ?? false}
          listParams={listParams}
          deleting={del.isPending}
          onClear={() => setSelected(new Set())}
          onDelete={() => {
            if (
              window.confirm(`Delete ${selected.size} episode(s) with their events and actions? This cannot be undone.`)
            )
              del.mutate({ ids: [...selected] });
          }}
        />
        {list.isLoading ? (
          <Empty>Loading…</Empty>
        ) : list.isError ? (
          <Empty>Could not load episodes: {list.error.message}</Empty>
        ) : rows.length === 0 ? (
          <Empty>
            {Object.keys(input.filter).length
              ? 'No episode matches these filters.'
              : 'No episodes yet. Start one on the home page, or import a file.'}
          </Empty>
        ) : (
          <>
            <InspectorTable
              rows={rows}
              sort={input.sort}
              dir={input.dir}
              onSort={sortBy}
              selected={selected}
              onSelect={onSelect}
              listParams={listParams}
            />
            <div
              className="flex items-center justify-center gap-3 border-t border-slate-100 p-3 text-sm"
              data-testid="pager"
            >
              <Button size="sm" disabled={input.page <= 1} onClick={() => go({ page: input.page - 1 })}>
                ← previous
              </Button>
              <span className="text-slate-600">
                page {input.page} of {list.data?.capped ? `${pages}+` : pages}
              </span>
              <Button size="sm" disabled={input.page >= pages} onClick={() => go({ page: input.page + 1 })}>
                next →
              </Button>
            </div>
          </>
        )}
      </Card>
      {help && <ShortcutsOverlay onClose={() => setHelp(false)} />}
    </div>
  );
}

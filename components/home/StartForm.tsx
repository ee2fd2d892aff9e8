'use client';
// Start an episode: environment, difficulty (with the twelve axes it implies), seed, catalog.
import { useEffect, useState, useTransition } from 'react';
import { useRouter } from 'next/navigation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AxisRow } from '@/server/episodes/axes';
import type { CatalogChoice } from '@/server/catalogs';
import { attempt, useTRPC, useTRPCClient } from '@/lib/trpc';
import { AxisTable } from '@/components/difficulty/AxisTable';
import { Button, Card, CardHeader } from '@/components/ui/primitives';

export interface EnvOption {
  id: string;
  name: string;
  description: string;
}

const D_MAX = 12;

export function StartForm({
  envs,
  initialAxes,
  initialCatalogs,
}: {
  envs: EnvOption[];
  initialAxes: AxisRow[];
  /** Rendered with the page, so the catalog box is never empty while the list loads. */
  initialCatalogs: CatalogChoice[];
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const router = useRouter();
  const [envId, setEnvId] = useState(envs[0]?.id ?? '');
  const [d, setD] = useState(0);
  const [randomSeed, setRandomSeed] = useState(true);
  const [seed, setSeed] = useState('1');
  const [catalogId, setCatalogId] = useState<string | null>(null);
  const catalogs = useQuery({ ...trpc.catalog.list.queryOptions(), initialData: initialCatalogs });
  // the optional LLM customer: a model connection rewrites the customer's templated text
  const [voices, setVoices] = useState<string[]>([]);
  const [customerVoice, setCustomerVoice] = useState('');
  useEffect(() => {
    void attempt(client.models.players.query()).then((res) => res.ok && setVoices(res.data.connections));
  }, [client]);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const preview = useQuery({
    ...trpc.difficulty.preview.queryOptions({ d }),
    placeholderData: keepPreviousData,
    initialData: d === 0 ? initialAxes : undefined,
  });
  const env = envs.find((e) => e.id === envId);

  function start() {
    setError(null);
    let seedValue: number | null = null;
    if (!randomSeed) {
      const n = Number(seed);
      if (!Number.isInteger(n) || n < 0 || n > 2_147_483_647) {
        setError('The seed must be a whole number from 0 to 2147483647, or tick “random”.');
        return;
      }
      seedValue = n;
    }
    startTransition(async () => {
      const res = await attempt(
        client.play.start.mutate({
          envId,
          d,
          seed: seedValue,
          ...(catalogId ? { catalogId } : {}),
          ...(customerVoice ? { customerVoice } : {}),
        }),
      );
      if (!res.ok) setError(res.error);
      else router.push(`/play/${res.data.id}`);
    });
  }

  return (
    <Card>
      <CardHeader title="Start an episode" />
      <form
        className="grid gap-6 p-4 md:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          start();
        }}
      >
        <div className="space-y-4">
          <div>
            <label htmlFor="env" className="mb-1 block text-sm font-medium text-slate-700">
              Environment
            </label>
            {/* a list box (all eight visible at once) rather than a drop-down */}
            <select
              id="env"
              size={envs.length}
              value={envId}
              onChange={(e) => setEnvId(e.target.value)}
              className="w-full overflow-y-auto rounded-md border border-slate-300 bg-white px-1 py-1 text-sm shadow-sm [&>option]:rounded [&>option]:px-2 [&>option]:py-1 [&>option:checked]:bg-slate-900 [&>option:checked]:text-white"
            >
              {envs.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.id} · {e.name}
                </option>
              ))}
            </select>
            {env && <p className="mt-1 text-xs text-slate-500">{env.description}</p>}
          </div>
          <div>
            <label
              htmlFor="difficulty"
              className="mb-1 flex items-baseline justify-between text-sm font-medium text-slate-700"
            >
              <span>Difficulty</span>
              <span className="text-lg font-semibold tabular-nums text-slate-900" data-testid="d-value">
                d = {d}
              </span>
            </label>
            <input
              id="difficulty"
              type="range"
              min={0}
              max={D_MAX}
              step={1}
              value={d}
              onChange={(e) => setD(Number(e.target.value))}
              className="w-full accent-slate-900"
            />
            <div className="flex justify-between text-[10px] text-slate-400">
              {Array.from({ length: D_MAX + 1 }, (_, i) => (
                <span key={i}>{i}</span>
              ))}
            </div>
          </div>
          <div>
            <span className="mb-1 block text-sm font-medium text-slate-700">Seed</span>
            <div className="flex items-center gap-3">
              <label className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  checked={randomSeed}
                  onChange={(e) => setRandomSeed(e.target.checked)}
                  data-testid="seed-random"
                />
                random
              </label>
              <input
                id="seed"
                aria-label="seed"
                type="number"
                min={0}
                value={seed}
                disabled={randomSeed}
                onChange={(e) => setSeed(e.target.value)}
                className="w-40 rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm disabled:bg-slate-100 disabled:text-slate-400"
              />
            </div>
          </div>
          <div>
            <label htmlFor="catalog" className="mb-1 block text-sm font-medium text-slate-700">
              Catalog
            </label>
            <select
              id="catalog"
              value={catalogId ?? catalogs.data?.[0]?.id ?? ''}
              onChange={(e) => setCatalogId(e.target.value)}
              className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm"
              data-testid="catalog-select"
            >
              {(catalogs.data ?? []).map((c) => (
                <option key={c.id} value={c.id} disabled={!c.prepared}>
                  {c.label}
                  {c.prepared ? '' : ' (not prepared: npm run catalog:prepare)'}
                </option>
              ))}
            </select>
            <p className="mt-1 text-xs text-slate-500">
              Larger synthetic catalogs are prepared ahead with <code>npm run catalog:prepare</code>, then loaded from
              the disk cache. Import a real one with <code>npm run catalog:import</code>.
            </p>
          </div>
          {voices.length > 0 && (
            <div>
              <label htmlFor="customer-voice" className="mb-1 block text-sm font-medium text-slate-700">
                Customer&apos;s voice
              </label>
              <select
                id="customer-voice"
                value={customerVoice}
                onChange={(e) => setCustomerVoice(e.target.value)}
                className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm"
                data-testid="customer-voice-select"
              >
                <option value="">templates (deterministic, no model)</option>
                {voices.map((v) => (
                  <option key={v} value={v}>
                    model {v} rewrites the templates
                  </option>
                ))}
              </select>
              <p className="mt-1 text-xs text-slate-500">
                The model gets only the templated message and must keep its facts; what it writes is recorded, so the
                replay never asks it again.
              </p>
            </div>
          )}
          {error && (
            <p className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800" role="alert">
              {error}
            </p>
          )}
          <Button type="submit" variant="primary" disabled={pending || !envId} data-testid="start-episode">
            {pending ? 'Starting…' : 'Start episode'}
          </Button>
        </div>
        <div>
          <h3 className="mb-1 text-sm font-medium text-slate-700">What d = {d} means</h3>
          <AxisTable rows={preview.data ?? initialAxes} pending={preview.isFetching && preview.isPlaceholderData} />
        </div>
      </form>
    </Card>
  );
}

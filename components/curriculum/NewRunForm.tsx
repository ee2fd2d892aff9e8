'use client';
// Create a curriculum run: a name and a collection (C1, C2, C4, ALL).
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc';
import { Button, Card, CardHeader } from '@/components/ui/primitives';

export interface CollectionOption {
  id: string;
  envs: string[];
}

export function NewRunForm({ collections }: { collections: CollectionOption[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState('');
  const [collection, setCollection] = useState(collections[2]?.id ?? collections[0]?.id ?? 'C1');
  const create = useMutation(
    trpc.curriculum.create.mutationOptions({
      onSuccess: async (run) => {
        setName('');
        queryClient.setQueryData(trpc.curriculum.get.queryKey({ id: run.id }), run);
        await queryClient.invalidateQueries({ queryKey: trpc.curriculum.list.queryKey() });
        router.push(`/curriculum?run=${run.id}`);
      },
    }),
  );
  const chosen = collections.find((c) => c.id === collection);
  return (
    <Card>
      <CardHeader title="New run" />
      <form
        className="space-y-3 p-4"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name: name.trim() || undefined, collection });
        }}
      >
        <div>
          <label htmlFor="run-name" className="mb-1 block text-sm font-medium text-slate-700">
            Name
          </label>
          <input
            id="run-name"
            value={name}
            maxLength={80}
            placeholder="optional, e.g. oracle on C4"
            onChange={(e) => setName(e.target.value)}
            className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm"
          />
        </div>
        <div>
          <label htmlFor="run-collection" className="mb-1 block text-sm font-medium text-slate-700">
            Collection
          </label>
          <select
            id="run-collection"
            value={collection}
            onChange={(e) => setCollection(e.target.value)}
            className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
          >
            {collections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.id} · {c.envs.length} env{c.envs.length === 1 ? '' : 's'}
              </option>
            ))}
          </select>
          {chosen && <p className="mt-1 text-xs text-slate-500">{chosen.envs.join(', ')}</p>}
        </div>
        {create.error && (
          <p className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800" role="alert">
            {create.error.message}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={create.isPending} data-testid="create-run">
          {create.isPending ? 'Creating…' : 'Create run'}
        </Button>
      </form>
    </Card>
  );
}

'use client';
// The replay's family box: the episode this one was forked from, its forks, and a form to
// fork it at any turn (a new episode that replays the first k turns, then someone continues).
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { EpisodeSummary } from '@/server/episodes/types';
import { attempt, useTRPCClient } from '@/lib/trpc';
import { Button, Card, CardHeader } from '@/components/ui/primitives';
import { fmtReward } from '@/lib/format';

export function EpisodeFamily({
  episodeId,
  turns,
  forkTurn,
  parent,
  forks,
}: {
  episodeId: string;
  /** turns taken so far: a fork may start after 0 … turns − 1 of them (or all, while active) */
  turns: number;
  forkTurn: number | null;
  parent: EpisodeSummary | null;
  forks: EpisodeSummary[];
}) {
  const trpc = useTRPCClient();
  const router = useRouter();
  const [k, setK] = useState(Math.min(2, turns));
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const fork = () =>
    startTransition(async () => {
      setError(null);
      const res = await attempt(trpc.replay.fork.mutate({ id: episodeId, turn: k }));
      if (!res.ok) setError(res.error);
      else router.push(`/play/${res.data.id}`); // the fork's playground: this browser holds its seat
    });
  return (
    <Card data-testid="episode-family">
      <CardHeader title="Family" />
      <div className="space-y-2 px-4 py-3 text-sm">
        {parent ? (
          <p>
            Forked from{' '}
            <Link
              className="text-sky-700 underline"
              href={`/episodes/${parent.id}?turn=${forkTurn ?? 0}`}
              data-testid="family-parent"
            >
              {parent.id}
            </Link>{' '}
            after turn {forkTurn}
          </p>
        ) : (
          <p className="text-slate-500">Not a fork.</p>
        )}
        {forks.length > 0 && (
          <ul className="list-disc pl-5" data-testid="family-forks">
            {forks.map((f) => (
              <li key={f.id}>
                <Link className="text-sky-700 underline" href={`/episodes/${f.id}`}>
                  {f.id}
                </Link>{' '}
                after turn {f.forkTurn} · {f.status === 'done' ? `reward ${fmtReward(f.reward)}` : 'active'}
              </li>
            ))}
          </ul>
        )}
        <div className="flex items-center gap-2 pt-1">
          <label htmlFor="fork-turn" className="text-slate-600">
            Fork after turn
          </label>
          <input
            id="fork-turn"
            type="number"
            min={0}
            max={turns}
            value={k}
            onChange={(e) => setK(Number(e.target.value))}
            className="w-16 rounded-md border border-slate-300 px-2 py-1"
            data-testid="fork-turn"
          />
          <Button onClick={fork} disabled={pending} data-testid="fork">
            Fork and play
          </Button>
        </div>
        {error && (
          <p className="text-rose-700" role="alert">
            {error}
          </p>
        )}
      </div>
    </Card>
  );
}

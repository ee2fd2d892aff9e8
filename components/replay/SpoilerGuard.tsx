'use client';
// The replay of an active episode keeps the goal, the world and the evidence behind this
// guard. Showing them is a reveal: recorded on the episode, which leaves the statistics.
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { attempt, useTRPCClient } from '@/lib/trpc';
import { Button, Card, CardHeader } from '@/components/ui/primitives';

export function SpoilerGuard({ episodeId }: { episodeId: string }) {
  const router = useRouter();
  const trpc = useTRPCClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  function reveal() {
    setError(null);
    startTransition(async () => {
      const res = await attempt(trpc.seat.reveal.mutate({ id: episodeId }));
      if (!res.ok) setError(res.error);
      else router.refresh();
    });
  }
  return (
    <Card className="border-dashed" data-testid="spoiler-guard">
      <CardHeader title="Hidden goal" />
      <div className="space-y-3 p-4 text-sm text-slate-700">
        <p>
          This episode is still being played. Its hidden goal, the world behind it and the evidence stay hidden so the
          replay cannot spoil it.
        </p>
        <p className="text-xs text-slate-500">
          Showing them is recorded as a reveal: the episode is marked and left out of statistics.
        </p>
        <Button size="sm" onClick={reveal} disabled={pending} data-testid="spoiler-reveal">
          {pending ? 'Revealing…' : 'Show the hidden goal (spoiler)'}
        </Button>
        {error && (
          <p className="text-xs text-rose-700" role="alert">
            {error}
          </p>
        )}
      </div>
    </Card>
  );
}

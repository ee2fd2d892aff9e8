'use client';
// "Play N episodes with agent X": advances the run in-process on the server.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc';
import { fmtReward } from '@/lib/format';
import { Button } from '@/components/ui/primitives';

const MAX = 1000;

export function PlayControl({ runId, agents }: { runId: string; agents: string[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [episodes, setEpisodes] = useState('100');
  const [agent, setAgent] = useState(agents[0] ?? 'oracle');
  const [inputError, setInputError] = useState<string | null>(null);
  const step = useMutation(
    trpc.curriculum.step.mutationOptions({
      onSuccess: async (res) => {
        queryClient.setQueryData(trpc.curriculum.get.queryKey({ id: runId }), res.run);
        await queryClient.invalidateQueries({ queryKey: trpc.curriculum.list.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.episodes.list.queryKey() });
      },
    }),
  );
  const last = step.data;

  function play() {
    const n = Number(episodes);
    if (!Number.isInteger(n) || n < 1 || n > MAX) {
      setInputError(`Play 1 to ${MAX} episodes at a time.`);
      return;
    }
    setInputError(null);
    step.mutate({ id: runId, episodes: n, agent });
  }

  return (
    <div className="space-y-2">
      <form
        className="flex flex-wrap items-end gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          play();
        }}
      >
        <label className="text-sm font-medium text-slate-700">
          Play
          <input
            aria-label="episodes to play"
            data-testid="play-episodes"
            type="number"
            min={1}
            max={MAX}
            value={episodes}
            onChange={(e) => setEpisodes(e.target.value)}
            className="mx-2 w-24 rounded-md border border-slate-300 px-2 py-1.5 text-sm shadow-sm"
          />
          episodes with
        </label>
        <select
          aria-label="agent"
          data-testid="play-agent"
          value={agent}
          onChange={(e) => setAgent(e.target.value)}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm"
        >
          {agents.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        <Button type="submit" variant="accent" disabled={step.isPending} data-testid="play-run">
          {step.isPending ? 'Playing…' : 'Play'}
        </Button>
      </form>
      {(inputError || step.error) && (
        <p className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800" role="alert" data-testid="play-error">
          {inputError ?? step.error?.message}
        </p>
      )}
      {last && !step.isPending && (
        <p className="text-sm text-slate-600" data-testid="play-result">
          Played {last.played} episode{last.played === 1 ? '' : 's'}: {last.passed} passed, mean reward{' '}
          {fmtReward(last.meanReward)}.{' '}
          {last.moves.length
            ? `Windows moved: ${last.moves
                .slice(0, 8)
                .map((m) => `${m.envId} → [${m.l}, ${m.h}] at #${m.episode}`)
                .join('; ')}${last.moves.length > 8 ? `; and ${last.moves.length - 8} more` : ''}.`
            : 'No window moved.'}
          {last.skippedEnvs.length > 0 && (
            <span className="text-amber-700"> Not playable yet (skipped): {last.skippedEnvs.join(', ')}.</span>
          )}
        </p>
      )}
    </div>
  );
}

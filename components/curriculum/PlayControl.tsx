'use client';
// "Play N episodes with X" (a built-in agent or a connected model): the server plays them in the
// background; the page follows with a progress bar (polling), can cancel, and refreshes the
// run's charts as it goes.
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc';
import { fmtReward } from '@/lib/format';
import { Button } from '@/components/ui/primitives';
import { boundText, RUN_BOUNDS } from '@/lib/run-bounds';

const MAX = 1000;

/** What each built-in agent is, so the list explains itself (unknown names show without a note). */
const AGENT_NOTES: Record<string, string> = {
  oracle: 'reads the hidden goal: an upper bound, not a player',
  heuristic: 'plays from what it sees, as a scripted shopper assistant',
  random: 'random well-formed actions: a noise baseline',
};

/** The built-in agents and the model connections (by name) this page may play. */
export interface CurriculumPlayers {
  agents: string[];
  connections: string[];
}

export function PlayControl({ runId, players }: { runId: string; players: CurriculumPlayers }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [episodes, setEpisodes] = useState('100');
  const [agent, setAgent] = useState(players.agents[0] ?? 'oracle');
  const [rollouts, setRollouts] = useState('1');
  const [temperature, setTemperature] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const progressKey = trpc.curriculum.progress.queryKey({ id: runId });
  const step = useMutation(
    trpc.curriculum.start.mutationOptions({
      onSuccess: (job) => queryClient.setQueryData(progressKey, job),
    }),
  );
  const cancel = useMutation(trpc.curriculum.cancel.mutationOptions());
  const progress = useQuery({
    ...trpc.curriculum.progress.queryOptions({ id: runId }),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 500 : false),
  });
  const job = progress.data ?? null;
  const running = job?.status === 'running';
  // While playing, refresh the run (windows, charts) every 2 s, and once when it ends.
  useEffect(() => {
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: trpc.curriculum.get.queryKey({ id: runId }) });
      void queryClient.invalidateQueries({ queryKey: trpc.curriculum.list.queryKey() });
    };
    if (!running) return refresh;
    const t = setInterval(refresh, 2000);
    return () => (clearInterval(t), refresh());
  }, [running, queryClient, runId, trpc]);

  function play() {
    const n = Number(episodes);
    if (!Number.isInteger(n) || n < 1 || n > MAX) {
      setInputError(`Play 1 to ${MAX} episodes at a time.`);
      return;
    }
    const g = Number(rollouts);
    const { rolloutsPerSeed: G, temperature: T } = RUN_BOUNDS;
    if (!Number.isInteger(g) || g < G.min || g > G.max) {
      setInputError(`Rollouts per task: ${boundText(G)}.`);
      return;
    }
    const t = temperature.trim() === '' ? undefined : Number(temperature);
    if (t !== undefined && !(t >= T.min && t <= T.max)) {
      setInputError(`Temperature: a number from ${T.min} to ${T.max}, or empty for the player's own.`);
      return;
    }
    setInputError(null);
    step.mutate({ id: runId, episodes: n, agent, rolloutsPerTask: g, temperature: t });
  }
  const field = 'mx-2 rounded-md border border-slate-300 px-2 py-1.5 text-sm shadow-sm';

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
            className={`${field} w-24`}
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
          <optgroup label="Built-in agents">
            {players.agents.map((a) => (
              <option key={a} value={a}>
                {a}
                {AGENT_NOTES[a] ? ` — ${AGENT_NOTES[a]}` : ''}
              </option>
            ))}
          </optgroup>
          {players.connections.length > 0 && (
            <optgroup label="Connected models">
              {players.connections.map((c) => (
                <option key={c} value={`connection:${c}`}>
                  model {c}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        <label className="text-sm font-medium text-slate-700">
          ×
          <input
            aria-label="rollouts per task"
            data-testid="play-rollouts"
            type="number"
            min={RUN_BOUNDS.rolloutsPerSeed.min}
            max={RUN_BOUNDS.rolloutsPerSeed.max}
            value={rollouts}
            onChange={(e) => setRollouts(e.target.value)}
            className={`${field} w-16`}
          />
          rollouts per task at temperature
          <input
            aria-label="temperature"
            data-testid="play-temperature"
            type="number"
            min={RUN_BOUNDS.temperature.min}
            max={RUN_BOUNDS.temperature.max}
            step={0.1}
            placeholder="own"
            value={temperature}
            onChange={(e) => setTemperature(e.target.value)}
            className={`${field} w-20`}
          />
        </label>
        <Button type="submit" variant="accent" disabled={step.isPending || running} data-testid="play-run">
          {running ? 'Playing…' : 'Play'}
        </Button>
      </form>
      <p className="text-xs text-slate-500" data-testid="play-agent-note">
        With G rollouts per task each task is played G times (a GRPO group: same env, d and seed; each rollout counts
        toward the window) and the episodes are rounded up to whole groups; the temperature makes a built-in agent
        sample (seeded) and overrides a model&apos;s own. A connected model plays one episode at a time; a step stops at
        the first episode its endpoint cannot answer (stored as infrastructure-aborted, not scored; its group is played
        again).{' '}
        {players.connections.length === 0 && (
          <>
            No model is connected:{' '}
            <Link href="/models" className="text-sky-700 underline">
              connect one
            </Link>{' '}
            to offer it here.
          </>
        )}
      </p>
      {job && running && (
        <div className="flex items-center gap-3" data-testid="play-progress">
          <progress
            className="h-2 w-64 accent-violet-600"
            max={job.total}
            value={job.played}
            aria-label="episodes played"
          />
          <span className="text-sm tabular-nums text-slate-600">
            {job.played} / {job.total} · {job.passed} passed · mean reward {fmtReward(job.meanReward)}
          </span>
          <Button
            type="button"
            variant="secondary"
            disabled={cancel.isPending || job.cancelled}
            onClick={() => cancel.mutate({ id: runId })}
            data-testid="play-cancel"
          >
            {job.cancelled ? 'Stopping…' : 'Cancel'}
          </Button>
        </div>
      )}
      {(inputError || step.error || job?.error) && (
        <p className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800" role="alert" data-testid="play-error">
          {inputError ?? step.error?.message ?? job?.error}
        </p>
      )}
      {job && !running && job.status === 'done' && !(job.error && job.played === 0) && (
        <p className="text-sm text-slate-600" data-testid="play-result">
          {job.cancelled ? 'Cancelled after' : 'Played'} {job.played} episode{job.played === 1 ? '' : 's'}: {job.passed}{' '}
          passed, mean reward {fmtReward(job.meanReward)}. The windows and charts below include them.
        </p>
      )}
    </div>
  );
}

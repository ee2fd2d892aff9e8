// A table of episodes (newest first): env, d, seed, reward, pass/fail, termination, turns, created.
import type { EpisodeSummary } from '@/server/episodes/types';
import { Badge } from '@/components/ui/primitives';
import { fmtDateTime, fmtReward, fmtTermination } from '@/lib/format';
import { EpisodeLink, ResultBadge } from './EpisodeCells';

/** An active episode's seed is withheld (null) until it ends or is revealed (server/inspector/spoiler.ts). */
type Row = Omit<EpisodeSummary, 'seed'> & { seed: number | null };

export function EpisodeTable({ episodes }: { episodes: Row[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="episode-table">
        <thead className="border-b border-slate-200 text-xs text-slate-500">
          <tr>
            <th className="px-4 py-2 font-medium">env</th>
            <th className="px-2 py-2 font-medium">d</th>
            <th className="px-2 py-2 font-medium">seed</th>
            <th className="px-2 py-2 text-right font-medium">reward</th>
            <th className="px-2 py-2 font-medium">result</th>
            <th className="px-2 py-2 font-medium">termination</th>
            <th className="px-2 py-2 text-right font-medium">turns</th>
            <th className="px-2 py-2 font-medium">player</th>
            <th className="px-2 py-2 font-medium">created</th>
            <th className="px-4 py-2" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {episodes.map((e) => (
            <tr key={e.id} className="hover:bg-slate-50" data-testid="episode-row">
              <td className="px-4 py-2 font-medium">{e.envId}</td>
              <td className="px-2 py-2 tabular-nums">{e.d}</td>
              <td
                className="px-2 py-2 font-mono text-xs"
                title={e.seed === null ? 'withheld while it is played' : undefined}
              >
                {e.seed ?? '—'}
              </td>
              <td className="px-2 py-2 text-right tabular-nums">{fmtReward(e.reward)}</td>
              <td className="px-2 py-2">
                <ResultBadge status={e.status} isCorrect={e.isCorrect} infra={e.infraError !== null} />
                {e.revealed && (
                  <Badge
                    tone="amber"
                    className="ml-1"
                    title="The goal was revealed while the episode was active: left out of statistics"
                  >
                    revealed
                  </Badge>
                )}
              </td>
              <td className="px-2 py-2 text-slate-600">{fmtTermination(e.terminationReason)}</td>
              <td className="px-2 py-2 text-right tabular-nums">{e.turn}</td>
              <td className="px-2 py-2 text-slate-600">{e.player}</td>
              <td className="whitespace-nowrap px-2 py-2 text-xs text-slate-500">{fmtDateTime(e.createdAt)}</td>
              <td className="whitespace-nowrap px-4 py-2 text-right">
                <EpisodeLink id={e.id} status={e.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

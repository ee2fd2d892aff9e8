// Title line of an episode: env, difficulty, seed, status, budgets.
import Link from 'next/link';
import type { SeatView } from '@/server/episodes/seat';
import { Badge } from '@/components/ui/primitives';
import { fmtReward, fmtTermination } from '@/lib/format';
import { isSpoiled } from '@/server/episodes/provenance';

/** What the header shows; the agent seat's view and the inspector's view both have it. */
export type HeaderEpisode = Pick<
  SeatView,
  | 'id'
  | 'envId'
  | 'd'
  | 'catalogId'
  | 'player'
  | 'status'
  | 'terminationReason'
  | 'reward'
  | 'isCorrect'
  | 'turn'
  | 'budgets'
  | 'revealed'
> & { seed: number | null };

export function EpisodeHeader({
  ep,
  envName,
  mode,
  otherActors = [],
}: {
  ep: HeaderEpisode;
  envName?: string;
  mode: 'play' | 'replay';
  /** who else took turns (a model or built-in agent taking over from the player who started) */
  otherActors?: string[];
}) {
  const nextTurn = Math.min(ep.turn + 1, ep.budgets.T_max);
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
      <div>
        <p className="text-xs uppercase tracking-wide text-slate-500">{mode === 'play' ? 'Playground' : 'Replay'}</p>
        <h1 className="text-xl font-semibold text-slate-900">
          {ep.envId}
          {envName && <span className="font-normal text-slate-500"> · {envName}</span>}
        </h1>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
          <Badge>d = {ep.d}</Badge>
          {ep.seed !== null && <Badge>seed {ep.seed}</Badge>}
          <Badge>{ep.catalogId}</Badge>
          <span data-testid="episode-player">
            <Badge>player {ep.player}</Badge>
          </span>
          {isSpoiled(ep.player) && (
            <Badge
              tone="amber"
              title="The oracle (which reads the hidden goal) took a turn: not a measure of a player."
            >
              oracle · spoiled
            </Badge>
          )}
          {otherActors.map((a) => (
            <span key={a} data-testid="other-actor">
              <Badge tone="blue" title="took turns in this episode">
                + {a}
              </Badge>
            </span>
          ))}
          {ep.revealed && (
            <Badge
              tone="amber"
              title="The hidden goal was revealed while the episode was active; it is left out of statistics."
            >
              goal revealed
            </Badge>
          )}
          {ep.status === 'active' ? (
            <Badge tone="blue">active</Badge>
          ) : (
            <Badge tone={ep.terminationReason === 'answered' ? 'green' : 'red'}>
              {fmtTermination(ep.terminationReason)}
            </Badge>
          )}
          {ep.reward !== null && (
            <Badge tone={ep.isCorrect ? 'green' : 'red'}>
              reward {fmtReward(ep.reward)} · {ep.isCorrect ? 'pass' : 'fail'}
            </Badge>
          )}
        </div>
      </div>
      <div className="flex items-center gap-4 text-sm">
        <div className="text-right" data-testid="budgets">
          <div className="font-medium text-slate-900">
            {ep.status === 'active'
              ? `Turn ${nextTurn} of ${ep.budgets.T_max}`
              : `${ep.turn} of ${ep.budgets.T_max} turns used`}
          </div>
          <div className="text-xs text-slate-500">
            up to {ep.budgets.B_tool} tool call{ep.budgets.B_tool === 1 ? '' : 's'} per turn
          </div>
        </div>
        {mode === 'play' ? (
          <Link href={`/episodes/${ep.id}`} className="text-sm text-sky-700 underline" data-testid="replay-link">
            Replay
          </Link>
        ) : (
          ep.status === 'active' && (
            <Link href={`/play/${ep.id}`} className="text-sm text-sky-700 underline">
              Continue playing
            </Link>
          )
        )}
      </div>
    </div>
  );
}

// Cells both episode tables (home / curriculum list and the inspector list) show the same way.
import Link from 'next/link';
import { isSpoiled } from '@/server/episodes/provenance';
import { Badge } from '@/components/ui/primitives';

export function ResultBadge({
  status,
  isCorrect,
  infra,
}: {
  status: string;
  isCorrect: boolean | null;
  infra?: boolean;
}) {
  // an infrastructure failure (e.g. the model was unreachable) is never scored
  if (infra)
    return (
      <span data-testid="infra-badge">
        <Badge tone="amber" title="a model turn failed in the infrastructure (e.g. unreachable); not scored">
          {status === 'active' ? 'infrastructure failure' : 'infrastructure-aborted'}
        </Badge>
      </span>
    );
  if (status === 'active') return <Badge tone="blue">active</Badge>;
  return isCorrect ? <Badge tone="green">pass</Badge> : <Badge tone="red">fail</Badge>;
}

/** "play" for an active episode, else "replay"; `query` is carried to the replay (e.g. the list it came from). */
export function EpisodeLink({ id, status, query = '' }: { id: string; status: string; query?: string }) {
  return status === 'active' ? (
    <Link href={`/play/${id}`} className="text-sky-700 underline">
      play
    </Link>
  ) : (
    <Link href={`/episodes/${id}${query}`} className="text-sky-700 underline" data-testid="replay-link">
      replay
    </Link>
  );
}

/** The derived player (server/episodes/provenance.ts); an episode the oracle acted in is marked spoiled. */
export function PlayerCell({ player }: { player: string }) {
  return (
    <>
      {player.startsWith('mixed:') ? `mixed (${player.slice(6).replaceAll('+', ', ')})` : player}
      {isSpoiled(player) && (
        <span className="ml-1" data-testid="spoiled-badge">
          <Badge tone="amber" title="the oracle (which reads the hidden goal) took a turn: not a measure of a player">
            oracle · spoiled
          </Badge>
        </span>
      )}
    </>
  );
}

// Cells both episode tables (home / curriculum list and the inspector list) show the same way.
import Link from 'next/link';
import { Badge } from '@/components/ui/primitives';

export function ResultBadge({ status, isCorrect }: { status: string; isCorrect: boolean | null }) {
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

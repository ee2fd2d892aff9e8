// The 404 of an episode page: what happened and a way back.
import Link from 'next/link';
import { Card } from '@/components/ui/primitives';

export function EpisodeNotFound() {
  return (
    <Card className="mx-auto mt-10 max-w-xl space-y-3 px-6 py-5" data-testid="episode-not-found">
      <p className="text-xs uppercase tracking-wide text-slate-500">404</p>
      <h1 className="text-lg font-semibold text-slate-900">No such episode</h1>
      <p className="text-sm text-slate-700">
        There is no episode with this id. It may have been typed wrong, or it lives in another database.
      </p>
      <p className="flex gap-4 text-sm">
        <Link href="/" className="text-sky-700 underline" data-testid="back-home">
          Start an episode
        </Link>
        <Link href="/episodes" className="text-sky-700 underline">
          All episodes
        </Link>
      </p>
    </Card>
  );
}

import { Suspense } from 'react';
import { EpisodeBrowser } from '@/components/episodes/EpisodeBrowser';

export const dynamic = 'force-dynamic';

export default function EpisodesPage() {
  return (
    <Suspense>
      <EpisodeBrowser />
    </Suspense>
  );
}

import Link from 'next/link';
import { headers } from 'next/headers';
import { authConfig, credentialsFrom, isAdmin } from '@/server/auth';
import { listEnvs } from '@/server/engine';
import { episodeService } from '@/server/episodes';
import { axisRows } from '@/server/episodes/axes';
import { listCatalogs } from '@/server/catalogs';
import { guardRow } from '@/server/inspector/spoiler';
import { StartForm } from '@/components/home/StartForm';
import { EpisodeTable } from '@/components/episodes/EpisodeTable';
import { Card, CardHeader, Empty } from '@/components/ui/primitives';

export const dynamic = 'force-dynamic';

export default async function HomePage() {
  const envs = listEnvs().map(({ id, name, description }) => ({
    id,
    name,
    description,
  }));
  // the list of episodes is the inspector's (auth on: admin only)
  const admin = isAdmin(authConfig(), credentialsFrom(await headers()));
  const page = admin ? await episodeService.listEpisodes({ limit: 10 }) : null;
  // an active episode's seed would regenerate its goal: withheld until it ends or is revealed
  const recent = page && { items: page.items.map((e) => guardRow(e, e.revealed)) };
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Play an e-commerce agent episode</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          You take the agent&apos;s seat: read the customer, call the shop&apos;s tools, answer. The environment scores
          the episode with its verifiable reward, and every episode is stored and can be replayed turn by turn.
        </p>
      </div>
      <StartForm envs={envs} initialAxes={axisRows(0)} initialCatalogs={listCatalogs()} />
      {recent && (
        <Card>
          <CardHeader
            title="Latest episodes"
            right={
              <Link href="/episodes" className="text-xs text-sky-700 underline">
                all episodes
              </Link>
            }
          />
          {recent.items.length === 0 ? <Empty>No episodes yet.</Empty> : <EpisodeTable episodes={recent.items} />}
        </Card>
      )}
    </div>
  );
}

import Link from 'next/link';
import { serverCaller } from '@/server/trpc/server-caller';
import { StartForm } from '@/components/home/StartForm';
import { EpisodeTable } from '@/components/episodes/EpisodeTable';
import { Card, CardHeader, Empty } from '@/components/ui/primitives';

export const dynamic = 'force-dynamic';

export default async function HomePage() {
  const trpc = await serverCaller();
  const [envs, axes, catalogs, session] = await Promise.all([
    trpc.envs.list(),
    trpc.difficulty.preview({ d: 0 }),
    trpc.catalog.list(),
    trpc.auth.session(),
  ]);
  // the list of episodes is the inspector's (auth on: admin only); an active episode's seed is
  // withheld there (it would regenerate the goal) until it ends or is revealed
  const recent = session.admin ? await trpc.episodes.list({ limit: 10 }) : null;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Play an e-commerce agent episode</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          You take the agent&apos;s seat: read the customer, call the shop&apos;s tools, answer. The environment scores
          the episode with its verifiable reward, and every episode is stored and can be replayed turn by turn.
        </p>
      </div>
      <StartForm
        envs={envs.map(({ id, name, description }) => ({ id, name, description }))}
        initialAxes={axes}
        initialCatalogs={catalogs}
      />
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

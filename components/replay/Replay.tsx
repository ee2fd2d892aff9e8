// The replay: every turn, the hidden goal, the reward with evidence, the difficulty axes.
// An active episode's goal and world stay behind the spoiler guard (never rendered before).
import type { EpisodeView, WorldView } from '@/server/episodes/types';
import type { AxisRow } from '@/server/episodes/axes';
import { RewardBreakdownPanel } from '@/components/reward/RewardBreakdownPanel';
import { AxisTable } from '@/components/difficulty/AxisTable';
import { EpisodeHeader } from '@/components/play/EpisodeHeader';
import { HiddenGoalCard } from '@/components/play/HiddenGoal';
import { SpoilerGuard } from './SpoilerGuard';
import { WorldPanel } from '@/components/play/WorldPanel';
import { ProductTitlesProvider } from '@/components/transcript/product-titles';
import { Card, CardHeader } from '@/components/ui/primitives';
import type { EpisodeSummary } from '@/server/episodes/types';
import { EpisodeFamily } from './EpisodeFamily';
import { ModelTranscript } from './ModelTranscript';

export function Replay({
  ep,
  envName,
  world,
  guarded,
  axes,
  highlightTurn,
  turnRecords = [],
  family,
}: {
  ep: Omit<EpisodeView, 'hiddenGoal'> & { hiddenGoal: EpisodeView['hiddenGoal'] | null };
  envName?: string;
  world: WorldView | null;
  /** active and not revealed: goal, world and evidence stay behind the spoiler guard */
  guarded: boolean;
  axes: AxisRow[];
  highlightTurn: number | null;
  /** issue 9: who took each turn, and a model's request/reply */
  turnRecords?: Array<{ turn: number; actor: string | null; modelRecord: unknown }>;
  family?: { parent: EpisodeSummary | null; forks: EpisodeSummary[] };
}) {

  return (
    <div>
      <EpisodeHeader ep={ep} envName={envName} mode="replay" />
      <div className="grid gap-5 lg:grid-cols-12">
        <div className="space-y-4 lg:col-span-7">
          <ModelTranscript
            events={ep.events}
            episodeId={ep.id}
            highlightTurn={highlightTurn}
            tMax={ep.budgets.T_max}
            catalogId={ep.catalogId}
            turnRecords={turnRecords}
          />
        </div>
        <aside className="space-y-4 lg:col-span-5">
          {family && <EpisodeFamily episodeId={ep.id} turns={ep.turn} forkTurn={ep.forkTurn} parent={family.parent} forks={family.forks} />}
          {guarded || !ep.hiddenGoal ? <SpoilerGuard episodeId={ep.id} /> : <HiddenGoalCard goal={ep.hiddenGoal} />}
          {ep.breakdown ? (
            <RewardBreakdownPanel breakdown={ep.breakdown} episodeId={ep.id} termination={ep.terminationReason} />
          ) : (
            <Card className="px-4 py-3 text-sm text-slate-500">No reward yet: the episode is still active.</Card>
          )}
          {!guarded && (
            <ProductTitlesProvider events={ep.events} catalogId={ep.catalogId} extra={world}>
              <WorldPanel world={world ?? undefined} loading={false} />
            </ProductTitlesProvider>
          )}
          <Card>
            <CardHeader title={`Difficulty axes at d = ${ep.d}`} />
            <div className="p-4">
              <AxisTable rows={axes} dense />
            </div>
          </Card>
        </aside>
      </div>
    </div>
  );
}

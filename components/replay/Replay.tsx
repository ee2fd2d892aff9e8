'use client';
// The replay: turns on the left; on the right, sticky, the reward with why it failed, the hidden
// goal, (for imports) the re-score, the world at the selected turn, then revision, forks and axes. j/k or ↑/↓ move between turns, [ ] between
// episodes of the list the replay was opened from; the URL keeps the turn (?turn=N).
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EpisodeView } from '@/server/episodes/types';
import type { AxisRow } from '@/server/episodes/axes';
import type { InspectorExtras } from '@/server/inspector/episode-data';
import { partsOf } from '@/server/inspector/rescore';
import { RewardBreakdownPanel } from '@/components/reward/RewardBreakdownPanel';
import { differsPhrase } from '@/components/reward/part-labels';
import { AxisTable } from '@/components/difficulty/AxisTable';
import { EpisodeHeader } from '@/components/play/EpisodeHeader';
import { HiddenGoalCard } from '@/components/play/HiddenGoal';
import { ShortcutsOverlay } from '@/components/episodes/ShortcutsOverlay';
import { BundleButton } from '@/components/episodes/BundleButton';
import { Card, CardHeader } from '@/components/ui/primitives';
import { useShortcuts } from '@/lib/keyboard';
import { fmtReward } from '@/lib/format';
import { ReplayTranscript } from './ReplayTranscript';
import { TurnMinimap } from './TurnMinimap';
import { WorldAtTurn } from './WorldAtTurn';
import { ImportRescorePanel } from './ImportRescorePanel';
import { RescorePanel } from './RescorePanel';
import { SpoilerGuard } from './SpoilerGuard';
import { useTurnWindow, type TurnRecord } from './useTurnWindow';
import type { RescoreView } from '@/server/episodes/rescore';
import type { TurnRange } from '@/server/inspector/turn-window';

export interface ListContext {
  /** the list's URL params (to go back and to keep [ ] in the same list) */
  params: string;
  prev: string | null;
  next: string | null;
}
import type { EpisodeSummary } from '@/server/episodes/types';
import { EpisodeFamily } from './EpisodeFamily';

export function Replay({
  ep,
  envName,
  passRule,
  axes,
  initialTurn,
  extras,
  list,
  guarded,
  rescores,
  currentRevision,
  turnRecords = [],
  window: turnWindow,
  family,
  otherActors = [],
}: {
  /** `events` holds the turns of `window` only (long episodes are sent in windows) */
  /** behind the spoiler guard the goal and the seed are null */
  ep: Omit<EpisodeView, 'hiddenGoal' | 'seed'> & { hiddenGoal: EpisodeView['hiddenGoal'] | null; seed: number | null };
  envName?: string;
  /** the env's pass rule as the engine states it (EnvInfo.passRule) */
  passRule?: string;
  axes: AxisRow[];
  initialTurn: number | null;
  extras: InspectorExtras;
  list: ListContext | null;
  /** active and not revealed: goal, world and evidence stay behind the spoiler guard */
  guarded: boolean;
  /** revision re-scores of this episode, newest first */
  rescores: RescoreView[];
  currentRevision: number;
  /** issue 9: who took each turn, and a model's request/reply (the window's turns) */
  turnRecords?: TurnRecord[];
  /** the turns `ep.events` holds */
  window: TurnRange;
  family?: { parent: EpisodeSummary | null; forks: EpisodeSummary[] };
  /** who took turns besides the player who started the episode (whole episode, not the window) */
  otherActors?: string[];
}) {
  const router = useRouter();
  const pathname = usePathname();
  const lastTurn = extras.marks.length - 1;
  // An imported episode has its own recorded-vs-engine panel; forking needs actions this engine replays.
  const imported = extras.origin !== 'engine';
  const replayable = !imported || extras.rescored?.method === 'replay';
  const [turn, setTurn] = useState(() => Math.min(Math.max(initialTurn ?? lastTurn, 0), lastTurn));
  const [help, setHelp] = useState(false);

  const select = useCallback(
    (t: number) => {
      const next = Math.min(Math.max(t, 0), lastTurn);
      setTurn(next);
      // The URL keeps the turn without a server round trip (Next syncs its router with history).
      const p = new URLSearchParams(window.location.search);
      p.set('turn', String(next));
      window.history.replaceState(window.history.state, '', `${pathname}?${p}`);
    },
    [lastTurn, pathname],
  );
  const shown = useTurnWindow(ep.id, { ...turnWindow, events: ep.events, records: turnRecords }, turn, lastTurn);
  // Scroll the selected turn into view (on load only when the link named a turn).
  const scrolled = useRef(initialTurn !== null);
  useEffect(() => {
    if (!scrolled.current) {
      scrolled.current = true;
      return;
    }
    document.getElementById(`turn-${turn}`)?.scrollIntoView({ block: 'start' });
  }, [turn, shown.from, shown.to]);

  const listQ = list ? `?list=${encodeURIComponent(list.params)}` : '';
  useShortcuts({
    j: () => select(turn + 1),
    ArrowDown: () => select(turn + 1),
    k: () => select(turn - 1),
    ArrowUp: () => select(turn - 1),
    ']': () => list?.next && router.push(`/episodes/${list.next}${listQ}`),
    '[': () => list?.prev && router.push(`/episodes/${list.prev}${listQ}`),
    '/': () => router.push(`/episodes${list?.params ? `?${list.params}` : ''}#search`),
    '?': () => setHelp((h) => !h),
    Escape: () => setHelp(false),
  });

  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center gap-3 text-xs">
        <Link href={`/episodes${list?.params ? `?${list.params}` : ''}`} className="text-sky-700 underline">
          ← episodes
        </Link>
        {list && (
          <span className="flex gap-2" data-testid="list-nav">
            {list.prev ? (
              <Link href={`/episodes/${list.prev}${listQ}`} className="text-sky-700 underline">
                [ previous
              </Link>
            ) : (
              <span className="text-slate-400">[ previous</span>
            )}
            {list.next ? (
              <Link href={`/episodes/${list.next}${listQ}`} className="text-sky-700 underline">
                next ]
              </Link>
            ) : (
              <span className="text-slate-400">next ]</span>
            )}
          </span>
        )}
        <Link href={`/episodes/compare?a=${ep.id}`} className="text-sky-700 underline" data-testid="compare-link">
          compare…
        </Link>
        {!guarded && <BundleButton query={`ids=${ep.id}`} className="ml-auto" />}
        <button
          type="button"
          className={guarded ? 'ml-auto text-slate-500 hover:text-slate-900' : 'text-slate-500 hover:text-slate-900'}
          onClick={() => setHelp(true)}
        >
          keyboard: ?
        </button>
      </div>
      <EpisodeHeader ep={ep} envName={envName} mode="replay" otherActors={otherActors} />
      <div className="sticky top-0 z-10 -mx-2 mb-3 border-b border-slate-200 bg-slate-50/95 px-2 py-2 backdrop-blur">
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm font-medium text-slate-800" data-testid="turn-position">
            {turn === 0 ? 'Opening' : `Turn ${turn} of ${ep.budgets.T_max}`} · {ep.turn} turn{ep.turn === 1 ? '' : 's'}{' '}
            taken ·{' '}
            <span className="font-normal text-slate-500">
              turn budget{' '}
              {ep.budgets.T_max === ep.axes.T_max
                ? `T_max = ${ep.axes.T_max}`
                : `${ep.budgets.T_max} = T_max ${ep.axes.T_max} × ${ep.budgets.T_max / ep.axes.T_max} sub-tasks`}
            </span>
          </span>
          <TurnMinimap marks={extras.marks} selected={turn} onSelect={select} />
          {ep.breakdown && (
            <span
              className="ml-auto flex flex-wrap items-center gap-x-3 text-xs tabular-nums text-slate-600"
              data-testid="reward-summary"
            >
              {/* a link: on a narrow screen the breakdown (and why it failed) sits below the turns */}
              <a
                href="#reward"
                className={ep.breakdown.isCorrect ? 'font-semibold text-emerald-700' : 'font-semibold text-rose-700'}
                data-testid="reward-summary-link"
              >
                {extras.rescored ? 'recorded' : 'reward'} {fmtReward(ep.breakdown.total)} ·{' '}
                {ep.breakdown.isCorrect ? 'pass' : 'fail · why?'}
              </a>
              <span>r_task {fmtReward(ep.breakdown.rTask)}</span>
              <span>r_eff {fmtReward(ep.breakdown.rEff)}</span>
              <span>r_hall {fmtReward(ep.breakdown.rHall)}</span>
              {extras.rescored?.reward !== null && extras.rescored?.reward !== undefined && (
                <span className="font-semibold text-violet-800" data-testid="summary-rescored">
                  this engine {fmtReward(extras.rescored.reward)}
                  {extras.rescored.differs.length > 0 &&
                    ` (${differsPhrase(extras.rescored.differs.map((d) => d.part))})`}
                </span>
              )}
            </span>
          )}
        </div>
      </div>
      <div className="grid gap-5 lg:grid-cols-12">
        <div className="min-w-0 space-y-4 lg:col-span-7">
          {shown.from > 0 && (
            <WindowEdge onClick={shown.earlier} loading={shown.loading} testId="show-earlier">
              Turns 0–{shown.from - 1} not shown · show earlier turns
            </WindowEdge>
          )}
          <ReplayTranscript
            episodeId={ep.id}
            events={shown.events}
            catalogId={ep.catalogId}
            tMax={ep.budgets.T_max}
            selected={turn}
            onSelect={select}
            marks={extras.marks}
            mistakes={extras.mistakes}
            outOfStock={extras.outOfStock}
            turnRecords={shown.records}
          />
          {shown.to < lastTurn && (
            <WindowEdge onClick={shown.later} loading={shown.loading} testId="show-later">
              Turns {shown.to + 1}–{lastTurn} not shown · show later turns
            </WindowEdge>
          )}
        </div>
        <aside
          className="min-w-0 space-y-4 lg:col-span-5 lg:sticky lg:top-16 lg:max-h-[calc(100vh-5rem)] lg:self-start lg:overflow-y-auto"
          data-testid="replay-aside"
        >
          {/* Why the episode scored what it did comes first (for an import, its recorded reward beside
              this engine's); tools for re-scoring and forking last. */}
          {extras.rescored && (
            <ImportRescorePanel
              extras={extras}
              recordedReward={ep.reward}
              storedParts={ep.breakdown ? partsOf(ep.breakdown) : null}
            />
          )}
          {ep.breakdown ? (
            <RewardBreakdownPanel
              envId={ep.envId}
              passRule={passRule}
              breakdown={ep.breakdown}
              episodeId={ep.id}
              termination={ep.terminationReason}
            />
          ) : (
            <Card className="px-4 py-3 text-sm text-slate-500">No reward yet: the episode is still active.</Card>
          )}
          {guarded || !ep.hiddenGoal ? <SpoilerGuard episodeId={ep.id} /> : <HiddenGoalCard goal={ep.hiddenGoal} />}
          {!guarded && <WorldAtTurn episodeId={ep.id} turn={turn} events={shown.events} catalogId={ep.catalogId} />}
          {!guarded && !imported && (
            <RescorePanel
              episodeId={ep.id}
              revision={ep.rewardRevision}
              currentRevision={currentRevision}
              done={ep.status === 'done'}
              initial={rescores[0] ?? null}
            />
          )}
          {family && replayable && (
            <EpisodeFamily
              episodeId={ep.id}
              turns={ep.turn}
              forkTurn={ep.forkTurn}
              parent={family.parent}
              forks={family.forks}
            />
          )}
          <Card>
            <CardHeader title={`Difficulty axes at d = ${ep.d}`} />
            <div className="p-4">
              {ep.budgets.T_max !== ep.axes.T_max && (
                <p className="mb-2 text-xs text-slate-600" data-testid="turn-budget-note">
                  Turn budget {ep.budgets.T_max} = T_max {ep.axes.T_max} × {ep.budgets.T_max / ep.axes.T_max} sub-tasks;
                  &quot;turn N of {ep.budgets.T_max}&quot; counts against it. The reward&apos;s T_ref is another number:
                  the turns a good agent needs.
                </p>
              )}
              <AxisTable rows={axes} dense />
            </div>
          </Card>
        </aside>
      </div>
      {help && <ShortcutsOverlay onClose={() => setHelp(false)} />}
    </div>
  );
}

function WindowEdge({
  onClick,
  loading,
  testId,
  children,
}: {
  onClick: () => void;
  loading: boolean;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={loading}
      className="w-full rounded-lg border border-dashed border-slate-300 px-4 py-2 text-sm text-sky-700 hover:bg-slate-100 disabled:text-slate-400"
      data-testid={testId}
    >
      {loading ? 'loading turns…' : children}
    </button>
  );
}

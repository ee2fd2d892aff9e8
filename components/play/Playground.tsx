'use client';
// The playground: a person plays the agent's side of an episode. It holds the agent seat's
// view (server/episodes/seat.ts) and nothing more: the goal arrives only when revealed on
// purpose or when the episode is over; the world panel is what the tools returned.
import Link from 'next/link';
import { useEffect, useMemo, useState, useTransition } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Action, ToolSpec } from '@/server/engine/types';
import type { EnvInfo } from '@/server/engine';
import type { SeatView } from '@/server/episodes/seat';
import { postStep, retryLostStep, revealGoal } from '@/lib/seat-step';
import { usePlayStore } from '@/lib/stores/play';
import { Transcript } from '@/components/transcript/Transcript';
import { ToolPrefillContext, type ToolPrefill } from '@/components/transcript/prefill';
import { AnswerFormContext } from '@/components/transcript/answer-prefill';
import { ProductTitlesProvider } from '@/components/transcript/product-titles';
import { RewardBreakdownPanel } from '@/components/reward/RewardBreakdownPanel';
import { Card } from '@/components/ui/primitives';
import { Composer } from './Composer';
import { EpisodeHeader } from './EpisodeHeader';
import { PlayGoalCard } from './HiddenGoal';
import { ToolPalette } from './ToolPalette';
import { WorldPanel } from './WorldPanel';
import { ModelSeat, playerOfActor, type Control } from './ModelSeat';
import { StreamingTurn } from './StreamingTurn';
import type { TurnPartial } from '@/lib/turn-stream';
import { valuesFromArgs } from './schema-build';
import { fieldsOf, type JsonSchema } from './schema-form';

export interface PlaygroundProps {
  initial: SeatView;
  tools: ToolSpec[];
  env: Pick<EnvInfo, 'id' | 'name' | 'passRule' | 'keepsGoOnAnswers'> & { answerSchema: JsonSchema };
  /** who took each stored turn (turn → actor) */
  actors?: Record<number, string | null>;
}

const CONTROL_KEY = 'ecomrlve:control:';

/** The actor of the latest stored turn (null: no turn, or an unrecorded actor). */
function lastActorOf(actors: Record<number, string | null>): string | null {
  const turns = Object.keys(actors).map(Number);
  return turns.length ? (actors[Math.max(...turns)] ?? null) : null;
}

export function Playground({ initial, tools, env, actors: initialActors = {} }: PlaygroundProps) {
  const id = initial.id;
  const [ep, setEp] = useState<SeatView>(initial);
  const [actors, setActors] = useState(initialActors);
  // Who holds the seat survives a reload: the last stored turn's actor, unless this browser
  // recorded a take-over since (localStorage, read after hydration).
  const lastActor = lastActorOf(initialActors);
  const [control, setControl] = useState<Control>(lastActor && lastActor !== 'human' ? 'model' : 'person');
  useEffect(() => {
    const kept = window.localStorage.getItem(CONTROL_KEY + id);
    if (kept === 'person' || kept === 'model') setControl(kept);
  }, [id]);
  const changeControl = (c: Control) => {
    setControl(c);
    window.localStorage.setItem(CONTROL_KEY + id, c);
  };
  const [streaming, setStreaming] = useState<TurnPartial | null>(null);
  const took = (view: SeatView, actor: string) => {
    // a turn's first actor stays (an infrastructure failure does not take a turn)
    setActors((a) => (view.turn > 0 && !a[view.turn] ? { ...a, [view.turn]: actor } : a));
    setEp(view);
  };
  const [revealing, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  // Steps go to the agent seat (tRPC seat.step under /play/<id>); a lost answer is retried with the same key.
  const step = useMutation({
    mutationFn: (turn: { action: Action | string; stepKey: string }) => postStep(id, turn.action, turn.stepKey),
    retry: retryLostStep,
    onSuccess: (view, turn) => {
      took(view, 'human');
      clearTurn(typeof turn.action !== 'string' && turn.action.answer !== null);
    },
    onError: (e) => setError(e.message),
  });
  const pending = revealing || step.isPending;
  const store = usePlayStore();
  const { init, clearTurn } = store;

  useEffect(() => init(id), [id, init]);

  // When the episode ends, bring the reward breakdown into view.
  const isDone = ep.status === 'done';
  const [wasActive] = useState(!isDone);
  useEffect(() => {
    if (isDone && wasActive) document.getElementById('reward')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [isDone, wasActive]);

  const prefill: ToolPrefill = useMemo(
    () => ({
      tools: tools.map((t) => t.name),
      prefill: (name, args) => {
        usePlayStore.getState().prefill(name, valuesFromArgs(args));
        document.getElementById('tool-palette')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      },
    }),
    [tools],
  );

  function send(action: Action | string) {
    setError(null);
    // one key per turn: a retried request (a lost response) returns the stored turn
    step.mutate({ action, stepKey: crypto.randomUUID() });
  }

  function reveal() {
    setError(null);
    startTransition(async () => {
      const view = await revealGoal(id).catch((e: Error) => void setError(e.message));
      if (!view) return;
      setEp(view);
      if (!usePlayStore.getState().revealGoal) usePlayStore.getState().toggleReveal();
    });
  }

  const answerFields = useMemo(() => fieldsOf(env.answerSchema), [env.answerSchema]);
  const active = ep.status === 'active';
  return (
    <ToolPrefillContext.Provider value={active ? prefill : null}>
      <AnswerFormContext.Provider value={active ? answerFields : null}>
        <EpisodeHeader ep={ep} envName={env.name} mode="play" />
        <div className="grid gap-5 lg:grid-cols-12">
          <div className="min-w-0 space-y-4 lg:col-span-7">
            <Transcript
              events={ep.events}
              episodeId={id}
              scrollToEnd
              tMax={ep.budgets.T_max}
              catalogId={ep.catalogId}
              actors={actors}
            />
            {streaming && <StreamingTurn partial={streaming} turn={ep.turn + 1} />}
            {!active && (
              <>
                {ep.breakdown && (
                  <RewardBreakdownPanel
                    envId={ep.envId}
                    passRule={env.passRule}
                    breakdown={ep.breakdown}
                    episodeId={id}
                    termination={ep.terminationReason}
                  />
                )}
                <Card className="flex items-center justify-between px-4 py-3 text-sm">
                  <span>The episode is over.</span>
                  <span className="flex gap-4">
                    <Link href={`/episodes/${id}`} className="text-sky-700 underline" data-testid="open-replay">
                      Open the replay
                    </Link>
                    <Link href="/" className="text-sky-700 underline">
                      Start another
                    </Link>
                  </span>
                </Card>
              </>
            )}
          </div>
          <aside className="space-y-4 lg:sticky lg:top-4 lg:col-span-5 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto lg:pb-4">
            <ModelSeat
              episode={ep}
              control={control}
              onControl={changeControl}
              handedOver={Object.values(actors).some((a) => a !== null && a !== 'human')}
              initialPlayer={lastActor && lastActor !== 'human' ? playerOfActor(lastActor) : undefined}
              onTurn={took}
              onPartial={setStreaming}
            />
            {active && control === 'person' && (
              <>
                <div id="tool-palette" className="scroll-mt-2">
                  <ToolPalette tools={tools} bTool={ep.budgets.B_tool} disabled={pending} />
                </div>
                {error && (
                  <p
                    className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800"
                    role="alert"
                    data-testid="turn-error"
                  >
                    {error}
                  </p>
                )}
                <Composer
                  envId={ep.envId}
                  answerSchema={env.answerSchema}
                  keepsGoOnAnswers={env.keepsGoOnAnswers}
                  pending={pending}
                  onSend={send}
                />
              </>
            )}
            <ProductTitlesProvider events={ep.events} catalogId={ep.catalogId} extra={ep.world}>
              <WorldPanel world={ep.world} loading={false} retrieved />
            </ProductTitlesProvider>
            <PlayGoalCard goal={ep.hiddenGoal} active={active} pending={pending} onReveal={reveal} />
          </aside>
        </div>
      </AnswerFormContext.Provider>
    </ToolPrefillContext.Provider>
  );
}

'use client';
// The generator's ground truth, for inspectors. The playground hides it behind a toggle.
import type { HiddenGoal } from '@/server/episodes/types';
import { usePlayStore } from '@/lib/stores/play';
import { Button, Card, CardHeader, JsonBlock } from '@/components/ui/primitives';

/** Summary lines; indented lines (JOURNEY's per-sub-task details) nest under the line above. */
export function nestSummary(lines: readonly string[]): Array<{ text: string; children: string[] }> {
  const out: Array<{ text: string; children: string[] }> = [];
  for (const line of lines) {
    const last = out[out.length - 1];
    if (/^\s/.test(line) && last) last.children.push(line.trim());
    else out.push({ text: line.trim(), children: [] });
  }
  return out;
}

export function HiddenGoalView({ goal }: { goal: HiddenGoal }) {
  return (
    <div className="space-y-2" data-testid="hidden-goal">
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800 [overflow-wrap:anywhere]">
        {nestSummary(goal.summary).map((item, i) => (
          <li key={i}>
            <span className={item.children.length > 0 ? 'font-medium' : undefined}>{item.text}</span>
            {item.children.length > 0 && (
              <ul className="mt-0.5 list-[circle] space-y-0.5 pl-5 text-slate-700">
                {item.children.map((c, j) => (
                  <li key={j}>{c}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <details>
        <summary className="cursor-pointer text-xs text-slate-500">goal data (JSON)</summary>
        <JsonBlock value={goal.data} className="mt-1" />
        <pre hidden data-testid="hidden-goal-json">
          {JSON.stringify(goal.data)}
        </pre>
      </details>
    </div>
  );
}

/** The replay's goal card (finished or revealed episodes). */
export function HiddenGoalCard({ goal }: { goal: HiddenGoal }) {
  return (
    <Card>
      <CardHeader title="Hidden goal" />
      <div className="p-4">
        <HiddenGoalView goal={goal} />
      </div>
    </Card>
  );
}

/**
 * The playground's goal card. The goal is not in the page until the player reveals it on
 * purpose: the server records the reveal and only then sends the goal.
 */
export function PlayGoalCard({
  goal,
  active,
  pending,
  onReveal,
}: {
  goal: HiddenGoal | null;
  active: boolean;
  pending: boolean;
  onReveal: () => void;
}) {
  const { revealGoal, toggleReveal } = usePlayStore();
  const shown = goal !== null && (!active || revealGoal);
  return (
    <Card className={active ? 'border-dashed' : undefined}>
      <CardHeader
        title="Hidden goal"
        right={
          active &&
          (goal === null ? (
            <Button size="sm" variant="ghost" onClick={onReveal} disabled={pending} data-testid="reveal-goal">
              Reveal hidden goal
            </Button>
          ) : (
            <Button
              size="sm"
              variant={revealGoal ? 'secondary' : 'ghost'}
              onClick={toggleReveal}
              aria-pressed={revealGoal}
              data-testid="toggle-goal"
            >
              {revealGoal ? 'Hide' : 'Show'}
            </Button>
          ))
        }
      />
      <div className="p-4">
        {shown ? (
          <HiddenGoalView goal={goal} />
        ) : goal === null ? (
          <p className="text-xs text-slate-500">
            Hidden while you play; an agent never sees it. Revealing it is recorded: the episode is marked as revealed
            and left out of statistics.
          </p>
        ) : (
          <p className="text-xs text-slate-500">Revealed (recorded). Hidden again on this screen.</p>
        )}
      </div>
    </Card>
  );
}

'use client';
// One square per turn: red = a mistake is on it, green = the customer caused it (not counted
// for efficiency), blue = task evidence credits it; the selected turn is outlined.
import type { TurnMark } from '@/server/inspector/turns';
import { cx } from '@/components/ui/primitives';

const TONE: Record<TurnMark, string> = {
  fail: 'bg-rose-500 text-white',
  uncounted: 'bg-emerald-500 text-white',
  ok: 'bg-sky-500 text-white',
  none: 'bg-slate-200 text-slate-700',
};
const LABEL: Record<TurnMark, string> = {
  fail: 'mistake',
  uncounted: 'not counted (customer-caused)',
  ok: 'credited',
  none: '',
};

export function TurnMinimap({
  marks,
  selected,
  onSelect,
}: {
  marks: TurnMark[];
  selected: number;
  onSelect: (turn: number) => void;
}) {
  return (
    <nav aria-label="Turns" className="flex flex-wrap gap-1" data-testid="turn-minimap">
      {marks.map((m, t) => (
        <button
          key={t}
          type="button"
          onClick={() => onSelect(t)}
          aria-current={t === selected ? 'step' : undefined}
          title={`${t === 0 ? 'opening' : `turn ${t}`}${LABEL[m] ? `: ${LABEL[m]}` : ''}`}
          className={cx(
            'h-6 min-w-6 rounded px-1 text-[11px] font-medium tabular-nums',
            TONE[m],
            t === selected && 'ring-2 ring-amber-400 ring-offset-1',
          )}
          data-testid="minimap-turn"
          data-mark={m}
        >
          {t === 0 ? 'O' : t}
        </button>
      ))}
    </nav>
  );
}

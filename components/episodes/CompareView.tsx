'use client';
// /episodes/compare: two episodes (?a=&b=) turn by turn, or two runs/agents (?ra=player:x&rb=run:y).
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { EpisodeCompare, PickSecond } from './EpisodeCompare';
import { RunCompare, RunPicker } from './RunCompare';

const side = (v: string | null) => {
  const m = v?.match(/^(player|run):(.+)$/);
  return m ? { by: m[1] as 'player' | 'run', value: m[2] } : null;
};

export function CompareView() {
  const sp = useSearchParams();
  const a = sp.get('a');
  const b = sp.get('b');
  const ra = side(sp.get('ra'));
  const rb = side(sp.get('rb'));
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3 text-xs">
        <Link href="/episodes" className="text-sky-700 underline">
          ← episodes
        </Link>
        <h1 className="text-xl font-semibold text-slate-900">Compare</h1>
      </div>
      {a && b ? <EpisodeCompare a={a} b={b} /> : a ? <PickSecond a={a} /> : null}
      {!a && (ra && rb ? <RunCompare a={ra} b={rb} /> : <RunPicker />)}
    </div>
  );
}

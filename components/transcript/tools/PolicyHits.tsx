'use client';
// policy.search: the matching rules, best first, with their category and score.
import { Badge } from '@/components/ui/primitives';
import { fmtFixed } from '@/lib/format';
import { UseRuleInAnswer } from './AnswerButtons';

export interface PolicyHitData {
  rule_id: string;
  title: string;
  text: string;
  category: string;
  score: number;
}

export function isPolicyHitList(v: unknown): v is PolicyHitData[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && 'rule_id' in x && 'text' in x);
}

const CATEGORY_TONES = {
  shipping: 'blue',
  returns: 'amber',
  pricing: 'green',
  membership: 'violet',
  warranty: 'slate',
} as const;

export function PolicyHits({ hits }: { hits: PolicyHitData[] }) {
  if (hits.length === 0) return <p className="text-sm text-slate-500">No rule shares a word with the query.</p>;
  const top = hits[0].score || 1;
  return (
    <ol className="space-y-2" data-testid="policy-hits">
      {hits.map((h, i) => (
        <li
          key={h.rule_id}
          className="rounded-md border border-slate-200 bg-white p-2.5"
          data-testid="policy-hit"
          data-rule-id={h.rule_id}
        >
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="text-xs tabular-nums text-slate-400">{i + 1}.</span>
            <span className="text-sm font-medium text-slate-900">{h.title}</span>
            <Badge tone={CATEGORY_TONES[h.category as keyof typeof CATEGORY_TONES] ?? 'slate'}>{h.category}</Badge>
            <code className="text-[11px] text-slate-500">{h.rule_id}</code>
            <span
              className="ml-auto flex items-center gap-1.5 text-[11px] tabular-nums text-slate-500"
              title="BM25 score"
            >
              <span className="inline-block h-1.5 w-14 overflow-hidden rounded bg-slate-100">
                <span className="block h-full bg-sky-400" style={{ width: `${Math.max(4, (h.score / top) * 100)}%` }} />
              </span>
              {fmtFixed(h.score, 2)}
            </span>
          </div>
          <p className="mt-1 text-sm text-slate-700">{h.text}</p>
          <div className="mt-1 flex flex-wrap gap-1.5 empty:hidden">
            <UseRuleInAnswer text={h.text} />
          </div>
        </li>
      ))}
    </ol>
  );
}

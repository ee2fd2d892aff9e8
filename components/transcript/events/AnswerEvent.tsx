'use client';
// The agent's answer: each field readable (ranked product lists with titles, sub-answers of a
// JOURNEY as nested blocks), with the raw JSON behind a toggle.
import { Badge, JsonBlock } from '@/components/ui/primitives';
import { ProductTitle, useProductTitle } from '../product-titles';

function ProductIdItem({ id, rank }: { id: string; rank: number }) {
  const title = useProductTitle(id);
  return (
    <li className="flex gap-1.5 text-xs" data-testid="answer-product" data-product-id={id}>
      <span className="w-4 shrink-0 text-right tabular-nums text-emerald-700">{rank}.</span>
      <span className="min-w-0 [overflow-wrap:anywhere]">
        {title && (
          <>
            <ProductTitle known={title} className="text-slate-900" />{' '}
          </>
        )}
        <code className="text-slate-600">{id}</code>
      </span>
    </li>
  );
}

function Value({ name, value }: { name: string; value: unknown }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-xs text-slate-500">(empty list)</span>;
    if (value.every((x) => typeof x === 'string')) {
      if (/product_ids?$/.test(name))
        return (
          <ol className="space-y-0.5">
            {(value as string[]).map((id, i) => (
              <ProductIdItem key={`${id}-${i}`} id={id} rank={i + 1} />
            ))}
          </ol>
        );
      return <code className="text-xs [overflow-wrap:anywhere]">{value.join(', ')}</code>;
    }
    return (
      <ol className="space-y-1.5">
        {value.map((x, i) => (
          <li key={i} className="rounded-md border border-emerald-200 bg-white px-2 py-1.5">
            <Value name={`${name}[${i + 1}]`} value={x} />
          </li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'object' && value !== null) {
    const { env, ...rest } = value as Record<string, unknown>;
    return (
      <div className="space-y-1">
        {typeof env === 'string' && <Badge tone="green">{env}</Badge>}
        <Fields fields={rest} />
      </div>
    );
  }
  if (typeof value === 'boolean') return <span className="text-sm">{value ? 'yes' : 'no'}</span>;
  if (typeof value === 'number') return <span className="font-mono text-sm tabular-nums">{value}</span>;
  return <span className="font-mono text-sm [overflow-wrap:anywhere]">{String(value)}</span>;
}

function Fields({ fields }: { fields: Record<string, unknown> }) {
  return (
    <dl className="space-y-1">
      {Object.entries(fields).map(([k, v]) => {
        // lists of objects (JOURNEY's sub-answers) take the full width under their key
        const nested = Array.isArray(v) && v.some((x) => typeof x === 'object' && x !== null);
        return (
          <div
            key={k}
            className={nested ? 'space-y-1' : 'grid gap-x-3 sm:grid-cols-[11rem_1fr]'}
            data-testid="answer-field"
            data-key={k}
          >
            <dt className="font-mono text-xs text-emerald-900">{k}</dt>
            <dd className="min-w-0">
              <Value name={k} value={v} />
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

export function AnswerEvent({ answer }: { answer: Record<string, unknown> }) {
  const { env, done, ...fields } = answer;
  return (
    <div
      className="ml-10 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm"
      data-testid="answer-event"
    >
      <div className="mb-1.5 flex items-center gap-2">
        <span className="font-medium text-emerald-900">Answer</span>
        <Badge tone="green">{String(env)}</Badge>
        <Badge tone={done ? 'green' : 'slate'}>{done ? 'done' : 'not done: the episode goes on'}</Badge>
      </div>
      {Object.keys(fields).length > 0 ? (
        <Fields fields={fields} />
      ) : (
        <p className="text-xs text-emerald-900">no fields</p>
      )}
      <details className="mt-1.5">
        <summary className="cursor-pointer text-xs text-emerald-800">raw JSON</summary>
        <JsonBlock value={answer} className="mt-1" />
      </details>
    </div>
  );
}

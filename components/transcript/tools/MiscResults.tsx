'use client';
// datetime.now, catalog.rerank and anything without a dedicated card.
import { JsonBlock } from '@/components/ui/primitives';

export function isDatetime(v: unknown): v is { today: string; weekday?: string } {
  return typeof v === 'object' && v !== null && 'today' in v;
}

export function DatetimeResult({ value }: { value: { today: string; weekday?: string } }) {
  return (
    <p className="text-sm">
      Today is{' '}
      <span className="font-medium">
        {value.weekday ? `${value.weekday}, ` : ''}
        {value.today}
      </span>
    </p>
  );
}

export function IdList({ ids }: { ids: string[] }) {
  return (
    <ol className="list-inside list-decimal font-mono text-xs text-slate-700">
      {ids.map((id) => (
        <li key={id}>{id}</li>
      ))}
    </ol>
  );
}

export function GenericResult({ value }: { value: unknown }) {
  return <JsonBlock value={value} />;
}

'use client';
// A ranked list of scalars (product ids, …): numbered chips with "move up" and "remove",
// and a box that adds what is typed or pasted (comma or newline separated) on Enter, on
// "Add", or when the box loses focus. The value stays the list's text ("a, b, c").
import { useState } from 'react';
import { Button, cx } from '@/components/ui/primitives';
import { appendToList, listItems, moveUpInList, removeFromList } from '../form-values';
import { inputCls } from './controls';

export function ListInput({
  id,
  name,
  value,
  itemKind,
  maxItems,
  onChange,
}: {
  id: string;
  name: string;
  value: string;
  itemKind?: string;
  maxItems?: number;
  onChange: (text: string) => void;
}) {
  const [draft, setDraft] = useState('');
  const items = listItems(value);
  const full = maxItems !== undefined && items.length >= maxItems;

  function commit() {
    if (draft.trim() === '') return;
    onChange(appendToList(value, draft));
    setDraft('');
  }

  return (
    <div className="space-y-1.5" data-testid={`list-${name}`}>
      {items.length > 0 && (
        <ol className="space-y-1">
          {items.map((item, i) => (
            <li
              key={`${item}-${i}`}
              className="flex items-center gap-1.5 rounded-md bg-slate-100 py-0.5 pl-2 pr-0.5 text-xs"
              data-testid="list-item"
              data-value={item}
            >
              <span className="w-5 shrink-0 text-right tabular-nums text-slate-400">{i + 1}.</span>
              <code className="min-w-0 flex-1 break-all text-slate-800">{item}</code>
              <Button
                size="sm"
                variant="ghost"
                disabled={i === 0}
                onClick={() => onChange(moveUpInList(value, i))}
                aria-label={`move ${item} up`}
                title="move up (rank higher)"
              >
                ↑
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => onChange(removeFromList(value, i))}
                aria-label={`remove ${item}`}
                title="remove"
              >
                ✕
              </Button>
            </li>
          ))}
        </ol>
      )}
      <div className="flex gap-1.5">
        <input
          id={id}
          name={name}
          type="text"
          disabled={full}
          className={cx(inputCls, 'font-mono text-xs')}
          value={draft}
          placeholder={
            full
              ? `at most ${maxItems} items`
              : `add ${itemKind === 'string' || !itemKind ? 'an id' : `a ${itemKind}`} (Enter; paste several, comma-separated)`
          }
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
        <Button size="sm" onClick={commit} disabled={full || draft.trim() === ''} aria-label={`add to ${name}`}>
          Add
        </Button>
      </div>
    </div>
  );
}

'use client';
// Long text in the transcript folds: the first FOLD_CHARS characters, then "show all" (issue 31:
// a 50 KB message was one giant bubble). Text only, never HTML.
import { useState } from 'react';
import { FOLD_CHARS } from '@/lib/play-limits';

export function FoldedText({ text, tone = 'dark' }: { text: string; tone?: 'dark' | 'light' }) {
  const [open, setOpen] = useState(false);
  if (text.length <= FOLD_CHARS) return <>{text}</>;
  return (
    <>
      {open ? text : `${text.slice(0, FOLD_CHARS)}…`}
      <button
        type="button"
        onClick={() => setOpen(!open)}
        className={`mt-1 block text-xs underline ${tone === 'dark' ? 'text-slate-300' : 'text-sky-700'}`}
        data-testid="fold-toggle"
      >
        {open ? 'Show less' : `Show all ${text.length.toLocaleString('en-US')} characters`}
      </button>
    </>
  );
}

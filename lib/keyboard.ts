'use client';
// Page-level keyboard shortcuts. Keys typed into inputs, selects and text areas are left
// alone (except Escape), so shortcuts never eat what the user writes.
import { useEffect, useRef } from 'react';

export type KeyMap = Record<string, (e: KeyboardEvent) => void>;

export function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

export function useShortcuts(keys: KeyMap): void {
  const ref = useRef(keys);
  useEffect(() => {
    ref.current = keys;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (isTypingTarget(e.target) && e.key !== 'Escape') return;
      const fn = ref.current[e.key];
      if (fn) {
        e.preventDefault();
        fn(e);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The shortcuts, for the `?` overlay (one list for every inspector page). */
export const SHORTCUTS: Array<{ keys: string[]; what: string }> = [
  { keys: ['j', '↓'], what: 'next turn' },
  { keys: ['k', '↑'], what: 'previous turn' },
  { keys: [']'], what: 'next episode of the current list' },
  { keys: ['['], what: 'previous episode of the current list' },
  { keys: ['/'], what: 'search' },
  { keys: ['?'], what: 'show or hide these shortcuts' },
  { keys: ['Esc'], what: 'close this overlay, leave the search box' },
];

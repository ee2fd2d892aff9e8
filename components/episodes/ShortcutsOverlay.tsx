'use client';
import { SHORTCUTS } from '@/lib/keyboard';

export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/40 p-4"
      onClick={onClose}
      data-testid="shortcuts-overlay"
    >
      <div
        className="w-full max-w-sm rounded-lg bg-white p-5 shadow-xl"
        role="dialog"
        aria-label="Keyboard shortcuts"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 className="mb-3 text-sm font-semibold text-slate-900">Keyboard shortcuts</h2>
        <dl className="space-y-1.5 text-sm">
          {SHORTCUTS.map((s) => (
            <div key={s.what} className="flex items-center justify-between gap-4">
              <dt className="flex gap-1">
                {s.keys.map((k) => (
                  <kbd key={k} className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">
                    {k}
                  </kbd>
                ))}
              </dt>
              <dd className="text-slate-600">{s.what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}

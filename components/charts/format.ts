// What the charts and figures of runs and curricula share: a share as a whole percent, and the
// colours of their series.

/** A share (0–1) as a whole percent; "—" for a missing value (a chart's gap, an env not played). */
export const pct = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? `${Math.round(x * 100)}%` : '—');

/** Line colours, one per series in order. */
export const SERIES_COLORS = ['#0f766e', '#7c3aed', '#b45309', '#be123c', '#1d4ed8', '#4d7c0f', '#a21caf', '#334155'];

// One dial, twelve axes (SPEC §6). The formulas live here and nowhere else.

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export interface AxisValues {
  m: number;
  k_rec: number;
  T_max: number;
  p_missing: number;
  p_noise: number;
  p_switch: number;
  top_k: number;
  eps_rank: number;
  p_oos: number;
  H_orders: number;
  B_branch: number;
  B_tool: number;
}

export type AxisName = keyof AxisValues;

export interface AxisInfo {
  name: AxisName;
  label: string;
  formula: string;
  integer: boolean;
  compute: (d: number) => number;
}

export const AXES: readonly AxisInfo[] = [
  { name: 'm', label: 'constraints', formula: '2 + ⌊d/2⌋', integer: true, compute: (d) => 2 + Math.floor(d / 2) },
  { name: 'k_rec', label: 'items to recommend', formula: 'min(10, 3 + ⌊d/3⌋)', integer: true, compute: (d) => Math.min(10, 3 + Math.floor(d / 3)) },
  { name: 'T_max', label: 'turn budget', formula: '4 + ⌊d/2⌋', integer: true, compute: (d) => 4 + Math.floor(d / 2) },
  { name: 'p_missing', label: 'omitted-slot chance', formula: '0.8·σ((d−3)/1.5)', integer: false, compute: (d) => 0.8 * sigmoid((d - 3) / 1.5) },
  { name: 'p_noise', label: 'typo / slang rate', formula: 'min(0.125, 0.01·d)', integer: false, compute: (d) => Math.min(0.125, 0.01 * d) },
  { name: 'p_switch', label: 'context-switch chance', formula: '0.6·σ((d−5)/2)', integer: false, compute: (d) => 0.6 * sigmoid((d - 5) / 2) },
  { name: 'top_k', label: 'retrieval depth cap', formula: 'max(20, 200 − 10·d)', integer: true, compute: (d) => Math.max(20, 200 - 10 * d) },
  { name: 'eps_rank', label: 'retrieval noise', formula: 'min(0.4, 0.02·d)', integer: false, compute: (d) => Math.min(0.4, 0.02 * d) },
  { name: 'p_oos', label: 'out-of-stock chance', formula: 'min(0.5, 0.05·d)', integer: false, compute: (d) => Math.min(0.5, 0.05 * d) },
  { name: 'H_orders', label: 'order-history size', formula: '1 + ⌊d/2⌋', integer: true, compute: (d) => 1 + Math.floor(d / 2) },
  { name: 'B_branch', label: 'policy clauses', formula: '1 + ⌊d/3⌋', integer: true, compute: (d) => 1 + Math.floor(d / 3) },
  { name: 'B_tool', label: 'tool calls per turn', formula: '1 + ⌊d/2⌋', integer: true, compute: (d) => 1 + Math.floor(d / 2) },
];

export const AXIS_NAMES = AXES.map((a) => a.name);

/** The effective axis values of an episode: formulas at d, then overrides. */
export function axesFor(d: number, overrides: Partial<AxisValues> = {}): AxisValues {
  if (!Number.isInteger(d) || d < 0) throw new Error(`difficulty d must be an integer ≥ 0, got ${d}`);
  const values = {} as AxisValues;
  for (const axis of AXES) values[axis.name] = axis.compute(d);
  for (const [name, value] of Object.entries(overrides)) {
    const axis = AXES.find((a) => a.name === name);
    if (!axis) throw new Error(`unknown axis override "${name}"; axes are ${AXIS_NAMES.join(', ')}`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new Error(`axis override ${name} must be a finite number ≥ 0, got ${String(value)}`);
    if (axis.integer && !Number.isInteger(value)) throw new Error(`axis override ${name} must be an integer, got ${value}`);
    if (!axis.integer && value > 1) throw new Error(`axis override ${name} is a probability and must be ≤ 1, got ${value}`);
    if ((name === 'T_max' || name === 'B_tool' || name === 'top_k') && value < 1)
      throw new Error(`axis override ${name} must be ≥ 1, got ${value}`);
    values[axis.name] = value;
  }
  return values;
}

/** Env-specific knobs derived from d (SPEC §6, last paragraph). */
export function envKnobs(d: number) {
  return {
    deltaMax: 0.5 * Math.exp(-d / 5),
    cartItems: Math.min(5, 1 + Math.floor(d / 3)),
    pVar: sigmoid((d - 2) / 1.5),
    pQty: Math.min(0.5, 0.1 * d),
    pEdge: 0.7 * sigmoid((d - 4) / 1.5),
    pRef: sigmoid((d - 2) / 1.5),
    lambdaSim: Math.min(0.8, Math.max(0.4, 0.4 + 0.05 * d)),
    pdAlpha: 4 + Math.floor(d / 4),
    bundleRequired: Math.min(12, 3 + Math.floor(d / 2)),
    journeyLength: Math.min(5, 2 + Math.floor(d / 4)),
  };
}

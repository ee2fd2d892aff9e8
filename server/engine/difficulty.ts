// One dial, twelve axes (SPEC §6). The formulas live here and nowhere else.

import { ENGINE_VERSION, REV3_RULES } from './version';

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
  /** The values an override may take (inclusive); the formula stays inside them for every supported d. */
  min: number;
  max: number;
  compute: (d: number) => number;
}

/**
 * The difficulties the engine supports (docs/engine.md, "Hardening"). The oracle solves every env
 * up to d = 40; beyond 30 the dial only inflates the count axes (orders, clauses, tool calls), so
 * the range stops there and every axis range below contains its formula's values on it.
 */
export const D_RANGE = { min: 0, max: 30 } as const;

export const AXES: readonly AxisInfo[] = [
  {
    name: 'm',
    min: 1,
    max: 20,
    label: 'constraints',
    formula: '2 + ⌊d/2⌋',
    integer: true,
    compute: (d) => 2 + Math.floor(d / 2),
  },
  {
    name: 'k_rec',
    min: 1,
    max: 10,
    label: 'items to recommend',
    formula: 'min(10, 3 + ⌊d/3⌋)',
    integer: true,
    compute: (d) => Math.min(10, 3 + Math.floor(d / 3)),
  },
  {
    name: 'T_max',
    min: 1,
    max: 100,
    label: 'turn budget',
    formula: '4 + ⌊d/2⌋',
    integer: true,
    compute: (d) => 4 + Math.floor(d / 2),
  },
  {
    name: 'p_missing',
    min: 0,
    max: 1,
    label: 'omitted-slot chance',
    formula: '0.8·σ((d−3)/1.5)',
    integer: false,
    compute: (d) => 0.8 * sigmoid((d - 3) / 1.5),
  },
  {
    name: 'p_noise',
    min: 0,
    max: 1,
    label: 'typo / slang rate',
    formula: 'min(0.125, 0.01·d)',
    integer: false,
    compute: (d) => Math.min(0.125, 0.01 * d),
  },
  {
    name: 'p_switch',
    min: 0,
    max: 1,
    label: 'context-switch chance',
    formula: '0.6·σ((d−5)/2)',
    integer: false,
    compute: (d) => 0.6 * sigmoid((d - 5) / 2),
  },
  {
    name: 'top_k',
    min: 1,
    max: 200,
    label: 'retrieval depth cap',
    formula: 'max(5, 20 − ⌊5d/4⌋)',
    integer: true,
    compute: (d) => Math.max(5, 20 - Math.floor((5 * d) / 4)),
  },
  {
    name: 'eps_rank',
    min: 0,
    max: 1,
    label: 'retrieval noise',
    formula: 'min(0.4, 0.02·d)',
    integer: false,
    compute: (d) => Math.min(0.4, 0.02 * d),
  },
  {
    name: 'p_oos',
    min: 0,
    max: 1,
    label: 'out-of-stock chance',
    formula: 'min(0.5, 0.05·d)',
    integer: false,
    compute: (d) => Math.min(0.5, 0.05 * d),
  },
  {
    name: 'H_orders',
    min: 1,
    max: 25,
    label: 'order-history size',
    formula: '1 + ⌊d/2⌋',
    integer: true,
    compute: (d) => 1 + Math.floor(d / 2),
  },
  {
    name: 'B_branch',
    min: 1,
    max: 12,
    label: 'policy clauses',
    formula: '1 + ⌊d/3⌋',
    integer: true,
    compute: (d) => 1 + Math.floor(d / 3),
  },
  {
    name: 'B_tool',
    min: 1,
    max: 20,
    label: 'tool calls per turn',
    formula: '1 + ⌊d/2⌋',
    integer: true,
    compute: (d) => 1 + Math.floor(d / 2),
  },
];

export const AXIS_NAMES = AXES.map((a) => a.name);

/** Each axis's override range, by name (for forms and input validation outside the engine). */
export const AXIS_RANGES: Readonly<Record<AxisName, { min: number; max: number; integer: boolean }>> =
  Object.fromEntries(AXES.map((a) => [a.name, { min: a.min, max: a.max, integer: a.integer }])) as Record<
    AxisName,
    { min: number; max: number; integer: boolean }
  >;

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** One sentence saying why d is not a supported difficulty, or null when it is. */
export function difficultyError(d: unknown): string | null {
  if (typeof d !== 'number' || !Number.isInteger(d) || d < D_RANGE.min || d > D_RANGE.max)
    return `difficulty d must be an integer from ${D_RANGE.min} to ${D_RANGE.max}, got ${show(d)}`;
  return null;
}

/** One sentence saying why an override is outside its axis's range, or null when it is fine. */
export function overrideError(name: string, value: unknown): string | null {
  const axis = AXES.find((a) => a.name === name);
  if (!axis) return `unknown axis override ${show(name)}; axes are ${AXIS_NAMES.join(', ')}`;
  const range = axis.integer
    ? `an integer from ${axis.min} to ${axis.max}`
    : `a number from ${axis.min} to ${axis.max}`;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= axis.min &&
    value <= axis.max &&
    (!axis.integer || Number.isInteger(value));
  return ok ? null : `axis override ${name} (${axis.label}) must be ${range}, got ${show(value)}`;
}

/** top_k before engine v3 (SPEC §6 rev 1–2): it never bound; older episodes replay with it. */
const topKBeforeRev3 = (d: number) => Math.max(20, 200 - 10 * d);
export const TOP_K_FORMULA_BEFORE_REV3 = 'max(20, 200 − 10·d)';

/**
 * The effective axis values of an episode: formulas at d (under the rules of `engineVersion`),
 * then overrides. Throws one precise error.
 */
export function axesFor(d: number, overrides: Partial<AxisValues> = {}, engineVersion = ENGINE_VERSION): AxisValues {
  const dError = difficultyError(d);
  if (dError) throw new Error(dError);
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    throw new Error(
      `axis overrides must be an object of axis values, got ${Array.isArray(overrides) ? 'a list' : show(overrides)}`,
    );
  const values = {} as AxisValues;
  for (const axis of AXES) values[axis.name] = axis.compute(d);
  if (engineVersion < REV3_RULES) values.top_k = topKBeforeRev3(d);
  for (const [name, value] of Object.entries(overrides)) {
    const error = overrideError(name, value);
    if (error) throw new Error(error);
    values[name as AxisName] = value as number;
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

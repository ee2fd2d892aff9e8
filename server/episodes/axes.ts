// Rows of the difficulty-axes table (name, label, formula, value, overridden), under the rules of
// the engine version the episode was played with (top_k's formula changed in v3).
import { AXES, axesFor, TOP_K_FORMULA_BEFORE_REV3, type AxisValues } from '@/server/engine/difficulty';
import { ENGINE_VERSION, REV3_RULES } from '@/server/engine/version';

export interface AxisRow {
  name: string;
  label: string;
  formula: string;
  integer: boolean;
  /** value the formula gives at d */
  formulaValue: number;
  /** effective value (after overrides) */
  value: number;
  overridden: boolean;
}

/**
 * The version whose formulas gave the stored effective values: the view does not carry the
 * episode's engine version, and the versions differ only in top_k, whose rev 1–2 value (≥ 20)
 * never equals the rev 3 one at a d with any other value (≤ 20, 20 only at d = 0 where rev 1–2 gives 200).
 */
function versionOfValues(d: number, effective: AxisValues | undefined, overrides: Partial<AxisValues>): number {
  if (!effective || 'top_k' in overrides) return ENGINE_VERSION;
  return effective.top_k === axesFor(d, {}, REV3_RULES - 1).top_k ? REV3_RULES - 1 : ENGINE_VERSION;
}

export function axisRows(d: number, effective?: AxisValues, overrides: Partial<AxisValues> = {}): AxisRow[] {
  const version = versionOfValues(d, effective, overrides);
  const byFormula = axesFor(d, {}, version);
  return AXES.map((a) => ({
    name: a.name,
    label: a.label,
    formula: a.name === 'top_k' && version < REV3_RULES ? TOP_K_FORMULA_BEFORE_REV3 : a.formula,
    integer: a.integer,
    formulaValue: byFormula[a.name],
    value: effective?.[a.name] ?? byFormula[a.name],
    overridden: Object.prototype.hasOwnProperty.call(overrides, a.name),
  }));
}

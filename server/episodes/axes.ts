// Rows of the difficulty-axes table (name, label, formula, value, overridden).
import { AXES, axesFor, type AxisValues } from '@/server/engine/difficulty';

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

export function axisRows(d: number, effective?: AxisValues, overrides: Partial<AxisValues> = {}): AxisRow[] {
  const byFormula = axesFor(d);
  return AXES.map((a) => ({
    name: a.name,
    label: a.label,
    formula: a.formula,
    integer: a.integer,
    formulaValue: byFormula[a.name],
    value: effective?.[a.name] ?? byFormula[a.name],
    overridden: Object.prototype.hasOwnProperty.call(overrides, a.name),
  }));
}

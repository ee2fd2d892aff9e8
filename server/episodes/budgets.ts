// The budgets shown with an episode. The turn budget is T_max unless the environment scales
// it (JOURNEY: T_max per sub-task), which the engine decides from the generated goal.
import type { AxisValues } from '@/server/engine/difficulty';
import { getEnv } from '@/server/engine/envs/registry';
import type { EnvTask } from '@/server/engine/envs/types';

export function episodeBudgets(envId: string, goalData: unknown, axes: AxisValues): { T_max: number; B_tool: number } {
  let tMax = axes.T_max;
  try {
    const task: EnvTask<unknown> = { goal: goalData, state: null, opening: '', slots: [] };
    tMax = getEnv(envId).turnBudget?.(task, axes) ?? axes.T_max;
  } catch {
    // an env this build does not know, or a goal it cannot read: fall back to the axis
  }
  return { T_max: tMax, B_tool: axes.B_tool };
}

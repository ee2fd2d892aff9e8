// The zod side of lib/run-bounds.ts (kept out of it: the forms import the bounds, and zod stays
// out of the browser): batch runs and curriculum groups refuse the same values in the same words.
import { z } from 'zod';
import { boundText, RUN_BOUNDS } from '@/lib/run-bounds';

/** A whole number within one of RUN_BOUNDS, every failure worded the same way. */
export const boundedInt = (b: { min: number; max: number }) =>
  z.int(boundText(b)).min(b.min, boundText(b)).max(b.max, boundText(b));

const temperatureText = `a number from ${RUN_BOUNDS.temperature.min} to ${RUN_BOUNDS.temperature.max}`;
/** A sampling temperature within RUN_BOUNDS. */
export const temperatureSchema = z
  .number(temperatureText)
  .min(RUN_BOUNDS.temperature.min, temperatureText)
  .max(RUN_BOUNDS.temperature.max, temperatureText);

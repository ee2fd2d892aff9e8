// The bounds of a batch run (/runs): the server action's schema refuses what is outside them and
// the form's number fields offer only what is inside, from this one table.
export const RUN_BOUNDS = {
  d: { min: 0, max: 12 },
  seeds: { min: 1, max: 50 },
  concurrency: { min: 1, max: 8 },
  rolloutsPerSeed: { min: 1, max: 16 },
  /** sampling temperature (not whole: see boundText's callers) */
  temperature: { min: 0, max: 2 },
} as const;

/** How a bound reads in an error message: "a whole number from 1 to 50". */
export const boundText = (b: { min: number; max: number }) => `a whole number from ${b.min} to ${b.max}`;

// Fixture for lint-rules.test.ts: imports type-only.ts for a type alone (erased at run time).
import type { Box } from './type-only';

export const twice = (n: number) => n * 2;
export const unbox = (box: Box) => box.value;

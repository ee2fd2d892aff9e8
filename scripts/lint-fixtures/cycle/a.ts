// Fixture for lint-rules.test.ts: a.ts and b.ts import each other at run time (a cycle).
import { b } from './b';

export const a = (): number => b() + 1;

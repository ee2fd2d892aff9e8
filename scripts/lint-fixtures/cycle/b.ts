// Fixture for lint-rules.test.ts: the other half of the a ↔ b cycle.
import { a } from './a';

export const b = (): number => (Math.random() > 2 ? a() : 0);

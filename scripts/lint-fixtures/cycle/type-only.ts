// Fixture for lint-rules.test.ts: only a type comes back from uses-type.ts, so there is no run-time cycle.
import { twice } from './uses-type';

export interface Box {
  value: number;
}
export const boxed = (value: number): Box => ({ value: twice(value) });

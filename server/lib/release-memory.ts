// One full garbage collection, for the moment a server has just let go of a lot of memory (an
// idle catalog unloaded). An idle server allocates too little for V8 to
// collect soon, so until it does the freed memory stays resident (docs/security.md, "Idle
// catalogs go"). `gc` is reached through a fresh context once --expose-gc is set. Then the native
// memory the collection freed goes back to the system (malloc-trim.ts).
import v8 from 'node:v8';
import vm from 'node:vm';
import { mallocTrim } from './malloc-trim';

export function releaseMemory(): void {
  try {
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)();
  } catch {
    // no gc available: V8 collects later by itself
  }
  mallocTrim();
}

// glibc's malloc_trim(0), through the addon scripts/build-malloc-trim.mjs builds (optional).
// glibc gives a heap's free memory back to the system only from its top, so after a burst (a
// stored curriculum, a 300 MB upload, a large catalog's pools) the freed blocks among those still
// in use stayed resident: ~45 MB of the server's main heap after bench:abuse (docs/security.md,
// "Memory after a burst"). malloc_trim releases the free pages inside the heaps too.
import path from 'node:path';

// loaded at run time from the build output, never bundled or traced by the build
const ADDON = '.next/native/malloc-trim.node';

let trim: (() => boolean) | null | undefined;

function load(file: string): (() => boolean) | null {
  try {
    const addon = { exports: {} as { mallocTrim?: () => boolean } };
    process.dlopen(addon, file);
    return addon.exports.mallocTrim ?? null;
  } catch {
    return null; // not built (dev, tests, no compiler, not glibc): freed memory stays until reused
  }
}

/**
 * Returns the malloc heaps' free pages to the system; true when memory was released, false when
 * there was none or the addon is not there. `file` is for tests (default: the built addon under the cwd).
 */
export function mallocTrim(file?: string): boolean {
  const fn = file ? load(file) : (trim ??= load(path.resolve(/* turbopackIgnore: true */ ADDON)));
  return fn ? fn() : false;
}

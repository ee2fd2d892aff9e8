// A process-wide object made on first use, not when its module is imported: `next build` imports
// every route to collect page data, and a fresh clone has no database to open then.

/** `make()` runs on the first property read; every later read goes to the object it made. */
export function lazyObject<T extends object>(make: () => T): T {
  let made: T | undefined;
  const target = () => (made ??= make());
  return new Proxy({} as T, {
    get(_, key) {
      const obj = target();
      const value = Reflect.get(obj, key, obj);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
  });
}

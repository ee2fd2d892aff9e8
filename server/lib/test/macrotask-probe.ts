// For tests of writers that must let other requests run between two writes: counts the turns of
// the event loop (a setImmediate chain) seen at each write, and holds the thread 15 ms per write,
// as a stored batch does.
export function macrotaskProbe() {
  let ticks = 0;
  let ticking = true;
  const tick = () => {
    ticks++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const seen: number[] = [];
  return {
    /** a batch writer: notes the turns so far, then holds the thread */
    write: async () => {
      seen.push(ticks);
      const until = Date.now() + 15;
      while (Date.now() < until);
    },
    /** stops counting; the turns seen at each write, in order */
    stop: () => {
      ticking = false;
      return seen;
    },
  };
}

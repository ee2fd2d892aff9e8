// One WebSocket's messages, handled one after another (answers keep the order of the requests)
// and fairly (issue 29: 5,000 `state` frames on one socket held /health 2.5–3.9 s): after each
// message the queue yields a macrotask, so other sockets and HTTP requests get their turn, and a
// socket whose queue holds `high` messages is paused (TCP back-pressure on that client alone)
// until half of them are done.
export interface FrameQueueOptions {
  /** Messages queued before the socket is paused (default 32). */
  high?: number;
  pause(): void;
  resume(): void;
}

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createFrameQueue<T>(handle: (item: T) => Promise<void>, opts: FrameQueueOptions) {
  const high = opts.high ?? 32;
  const items: T[] = [];
  let running = false;
  let paused = false;

  async function run() {
    running = true;
    while (items.length) {
      await handle(items.shift()!);
      if (paused && items.length <= high / 2) {
        paused = false;
        opts.resume();
      }
      await nextMacrotask();
    }
    running = false;
  }

  return {
    push(item: T) {
      items.push(item);
      if (!paused && items.length >= high) {
        paused = true;
        opts.pause();
      }
      if (!running) void run();
    },
    get size() {
      return items.length;
    },
  };
}

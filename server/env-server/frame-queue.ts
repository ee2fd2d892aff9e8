// One WebSocket's messages, handled one after another (answers keep the order of the requests)
// and fairly (issue 29: 5,000 `state` frames on one socket held /health 2.5–3.9 s): before each
// queued message the queue yields a macrotask, so other sockets and HTTP requests get their turn, and a
// socket whose queue holds `high` messages or `highBytes` bytes is paused (TCP back-pressure on
// that client alone) until both are down to half.
export interface FrameQueueOptions {
  /** Messages queued before the socket is paused (default 32). */
  high?: number;
  /** Bytes queued before the socket is paused (default 1 MB: a few large frames, not 32 of them). */
  highBytes?: number;
  pause(): void;
  resume(): void;
}

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createFrameQueue<T>(handle: (item: T) => Promise<void>, opts: FrameQueueOptions) {
  const high = opts.high ?? 32;
  const highBytes = opts.highBytes ?? 1024 * 1024;
  const items: Array<{ item: T; bytes: number }> = [];
  let queuedBytes = 0;
  let running = false;
  let paused = false;

  async function run() {
    running = true;
    while (items.length) {
      const next = items.shift()!;
      queuedBytes -= next.bytes;
      await handle(next.item);
      if (paused && items.length <= high / 2 && queuedBytes <= highBytes / 2) {
        paused = false;
        opts.resume();
      }
      // the next message of this socket waits a turn; with none waiting there is nothing to yield for
      if (items.length) await nextMacrotask();
    }
    running = false;
  }

  return {
    /** Queues an item of `bytes` (its size on the wire). */
    push(item: T, bytes = 0) {
      items.push({ item, bytes });
      queuedBytes += bytes;
      if (!paused && (items.length >= high || queuedBytes >= highBytes)) {
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

// A sliding-window counter per key (an address, a token): at most `max` events in `windowMs`.
// Small and in memory: one process's view, which is what a single app server needs; the number
// of keys is bounded (the oldest key goes first), so a flood of new keys cannot grow it.
export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Keys remembered at most (default 10,000). */
  maxKeys?: number;
  now?: () => number;
}

export class RateLimit {
  private readonly hits = new Map<string, number[]>();
  private readonly now: () => number;
  constructor(private readonly opts: RateLimitOptions) {
    this.now = opts.now ?? Date.now;
  }

  private recent(key: string): number[] {
    const since = this.now() - this.opts.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  /** Seconds until `key` may act again (0 = now). */
  retryAfterS(key: string): number {
    const list = this.recent(key);
    if (list.length < this.opts.max) return 0;
    return Math.max(1, Math.ceil((list[list.length - this.opts.max] + this.opts.windowMs - this.now()) / 1000));
  }

  /** Counts one event for `key`. */
  hit(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.hits.delete(key); // re-inserted last: Map order is then oldest-touched first
    this.hits.set(key, list);
    if (this.hits.size > (this.opts.maxKeys ?? 10_000)) this.hits.delete(this.hits.keys().next().value!);
  }

  /** Forgets `key` (a successful sign-in clears its failures). */
  clear(key: string): void {
    this.hits.delete(key);
  }
}

// A sliding-window sum per key (an address, a token): at most `max` in `windowMs`, where each
// event counts 1 (requests, failures) or its weight (bytes). Small and in memory: one process's
// view, which is what a single app server needs; the number of keys is bounded (the least
// recently touched key goes first), so a flood of new keys cannot grow it.
export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Keys remembered at most (default 10,000). */
  maxKeys?: number;
  now?: () => number;
}

type Entry = { at: number; weight: number };

export class RateLimit {
  private readonly hits = new Map<string, Entry[]>();
  private readonly now: () => number;
  constructor(private readonly opts: RateLimitOptions) {
    this.now = opts.now ?? Date.now;
  }

  private recent(key: string): Entry[] {
    const since = this.now() - this.opts.windowMs;
    const list = (this.hits.get(key) ?? []).filter((e) => e.at > since);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  /** What `key` used in the window. */
  used(key: string): number {
    return this.recent(key).reduce((n, e) => n + e.weight, 0);
  }

  /** Seconds until `key` is below its limit again (0 = now): until enough of its oldest events leave the window. */
  retryAfterS(key: string): number {
    const list = this.recent(key);
    let total = list.reduce((n, e) => n + e.weight, 0);
    if (total < this.opts.max) return 0;
    for (const e of list) {
      total -= e.weight;
      if (total < this.opts.max) return this.waitFor(e);
    }
    return 0;
  }

  private waitFor(e: Entry): number {
    return Math.max(1, Math.ceil((e.at + this.opts.windowMs - this.now()) / 1000));
  }

  /** Counts one event of `weight` (default 1) for `key`. */
  hit(key: string, weight = 1): void {
    const list = this.recent(key);
    list.push({ at: this.now(), weight });
    this.hits.delete(key); // re-inserted last: Map order is then least recently touched first
    this.hits.set(key, list);
    if (this.hits.size > (this.opts.maxKeys ?? 10_000)) this.hits.delete(this.hits.keys().next().value!);
  }

  /** Forgets `key` (a successful sign-in clears its failures). */
  clear(key: string): void {
    this.hits.delete(key);
  }
}

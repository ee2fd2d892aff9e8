// Fair shares of the WebSocket sessions (issue 29: 64 idle sockets from one client locked every
// other client out for the 900 s idle timeout). When every session is taken, a newcomer whose
// client (its address) holds fewer sessions than the client holding the most takes the place of
// that client's least recently active session (closed with 1013, "try again later"); otherwise
// the newcomer is refused as before. One client alone can still use the whole capacity.
export interface HeldSocket {
  client: string;
  lastActive: number;
  /** Closes the session to make room (CAPACITY_REACHED, 1013). */
  evict(): void;
}

export class SocketShare {
  private readonly held = new Set<HeldSocket>();
  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.held.size;
  }

  private count(client: string): number {
    let n = 0;
    for (const h of this.held) if (h.client === client) n++;
    return n;
  }

  /** Takes a place for `client` (evicting another client's session if that is fair), or null when full. */
  admit(client: string, evict: () => void): HeldSocket | null {
    if (this.held.size >= this.max) {
      const victim = this.evictionFor(client);
      if (!victim) return null;
      this.held.delete(victim);
      victim.evict();
    }
    const entry: HeldSocket = { client, lastActive: this.now(), evict };
    this.held.add(entry);
    return entry;
  }

  /** The least recently active session of the largest holder, if it holds more than `client` would. */
  private evictionFor(client: string): HeldSocket | null {
    const counts = new Map<string, number>();
    for (const h of this.held) counts.set(h.client, (counts.get(h.client) ?? 0) + 1);
    let largest: string | null = null;
    for (const [c, n] of counts) if (largest === null || n > counts.get(largest)!) largest = c;
    if (largest === null || counts.get(largest)! <= this.count(client) + 1) return null;
    let victim: HeldSocket | null = null;
    for (const h of this.held) if (h.client === largest && (!victim || h.lastActive < victim.lastActive)) victim = h;
    return victim;
  }

  touch(entry: HeldSocket): void {
    entry.lastActive = this.now();
  }

  release(entry: HeldSocket): void {
    this.held.delete(entry);
  }
}

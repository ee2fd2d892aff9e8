// One policy for sharing the server's places between clients (a client is its address): the
// WebSocket sessions (ws.ts) and the episodes started over HTTP or MCP (http.ts) each have one.
// - A client holds at most `perClient` places (ECOMRLVE_MAX_SESSIONS_PER_CLIENT).
// - When all `max` places are taken, a newcomer whose client holds fewer than the largest holder
//   takes the place of that holder's least recently active evictable one (a WebSocket session,
//   closed with 1013, "try again later"; issue 29: 64 idle sockets from one client locked every
//   other client out for the idle timeout); otherwise it is refused. One client alone can still
//   use every place.
// - A place whose `alive()` turns false (an HTTP episode that ended or was dropped) stops counting.
import { EnvServerError } from './errors';

export interface Place {
  client: string;
  lastActive: number;
  /** Closes the holder to make room (only evictable places have it). */
  evict?: () => void;
  /** False once the place is free by itself (checked before counting). */
  alive?: () => boolean;
}

export interface ShareOptions {
  max: number;
  perClient: number;
  /** What a place is, for the refusal: "WebSocket sessions open", "episodes started over HTTP running". */
  what: string;
  now?: () => number;
}

export class ClientShare {
  private readonly held = new Set<Place>();
  private readonly now: () => number;
  constructor(private readonly options: ShareOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    this.prune();
    return this.held.size;
  }

  /** A place for the client, making room fairly when full; CAPACITY_REACHED (one sentence) when it may not have one. */
  admit(client: string, how: Pick<Place, 'evict' | 'alive'> = {}): Place {
    const { max, perClient, what } = this.options;
    const counts = this.counts();
    const mine = counts.get(client) ?? 0;
    if (mine >= perClient)
      throw new EnvServerError(
        'CAPACITY_REACHED',
        `this client has ${mine} ${what}, its limit (ECOMRLVE_MAX_SESSIONS_PER_CLIENT=${perClient}); finish some first`,
      );
    if (this.held.size >= max) {
      const victim = this.victimFor(mine, counts);
      if (!victim)
        throw new EnvServerError(
          'CAPACITY_REACHED',
          `the server has ${this.held.size} ${what}, its limit (ECOMRLVE_MAX_SESSIONS=${max})`,
        );
      this.held.delete(victim);
      victim.evict!();
    }
    const place: Place = { client, lastActive: this.now(), ...how };
    this.held.add(place);
    return place;
  }

  touch(place: Place): void {
    place.lastActive = this.now();
  }

  release(place: Place): void {
    this.held.delete(place);
  }

  private prune(): void {
    for (const p of this.held) if (p.alive && !p.alive()) this.held.delete(p);
  }

  private counts(): Map<string, number> {
    this.prune();
    const counts = new Map<string, number>();
    for (const p of this.held) counts.set(p.client, (counts.get(p.client) ?? 0) + 1);
    return counts;
  }

  /** The least recently active evictable place of the largest holder, if it holds more than the newcomer would. */
  private victimFor(mine: number, counts: Map<string, number>): Place | null {
    let largest: string | null = null;
    for (const [c, n] of counts) if (largest === null || n > counts.get(largest)!) largest = c;
    if (largest === null || counts.get(largest)! <= mine + 1) return null;
    let victim: Place | null = null;
    for (const p of this.held)
      if (p.client === largest && p.evict && (!victim || p.lastActive < victim.lastActive)) victim = p;
    return victim;
  }
}

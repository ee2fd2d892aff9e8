// Finished episodes' event logs, kept by the worker that played them until it idles (eleventh
// round). With deferred events (materialise.ts) a step stores only its action; the events were
// then replayed from config + actions, which cost about as much CPU as playing the episode again
// (~1.3 ms a step). The worker that commits an episode's last step still holds every event in
// memory, so it serialises them once (the rows the eager path would have stored) and keeps them
// here; its idle materialiser writes them out without a replay (storeEventLogs). Bounded by
// count and by bytes: beyond the bound, and for every episode this queue never saw (another
// worker's, a crash, a restart), the replay in materialiseEvents still does the work.
import type { EpisodeEvent } from '@/server/engine/types';
import { eventRows, type EventRow } from '@/server/episodes/sqlite-store/rows';

/** Default bounds: ~20 s of a saturated two-core server's finished episodes (~45 KB of text each). */
export const FINISHED_LOGS_DEFAULTS = { maxEpisodes: 4096, maxBytes: 64 * 1024 * 1024 } as const;

export interface FinishedLog {
  id: string;
  /** Every event of the episode, serialised as the eager writers store them. */
  rows: EventRow[];
  /** The rows' payload characters (what the byte bound counts). */
  bytes: number;
}

export interface FinishedLogStats {
  /** Logs kept. */
  kept: number;
  /** Logs refused because the queue was full (left to the replay). */
  refused: number;
  /** Logs handed out to be written. */
  taken: number;
}

export class FinishedLogs {
  private logs: FinishedLog[] = [];
  private head = 0;
  private heldBytes = 0;
  readonly stats: FinishedLogStats = { kept: 0, refused: 0, taken: 0 };

  constructor(readonly bounds: { maxEpisodes: number; maxBytes: number } = FINISHED_LOGS_DEFAULTS) {}

  get size(): number {
    return this.logs.length - this.head;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * Keeps a finished episode's log (its last step committed). Returns false, keeping nothing,
   * when the queue is full: that episode's events are replayed later instead. A full queue is
   * checked before serialising, so a saturated worker pays nothing for logs it cannot keep.
   */
  offer(id: string, events: readonly EpisodeEvent[]): boolean {
    if (this.size >= this.bounds.maxEpisodes || this.heldBytes >= this.bounds.maxBytes) {
      this.stats.refused++;
      return false;
    }
    const rows = eventRows(events, 0);
    let bytes = 0;
    for (const r of rows) bytes += r.payload.length;
    if (this.heldBytes + bytes > this.bounds.maxBytes) {
      this.stats.refused++;
      return false;
    }
    this.logs.push({ id, rows, bytes });
    this.heldBytes += bytes;
    this.stats.kept++;
    return true;
  }

  /** Up to `n` logs, oldest first, out of the queue (a failed write leaves them to the replay). */
  take(n: number): FinishedLog[] {
    const out = this.logs.slice(this.head, this.head + n);
    this.head += out.length;
    for (const log of out) this.heldBytes -= log.bytes;
    this.stats.taken += out.length;
    // compact now and then rather than shift() per log
    if (this.head > 1024 && this.head * 2 > this.logs.length) {
      this.logs = this.logs.slice(this.head);
      this.head = 0;
    }
    return out;
  }
}

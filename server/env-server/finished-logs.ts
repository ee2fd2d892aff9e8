// Finished episodes' event logs, kept by the worker that played them until it idles (eleventh
// round). With deferred events (materialise.ts) a step stores only its action; the events were
// then replayed from config + actions, which cost about as much CPU as playing the episode again
// (~1.3 ms a step). The worker that commits an episode's last step still holds every event in
// memory, so it keeps them here; its idle materialiser writes them out without a replay
// (storeEventLogs). Bounded by count and by an estimate of the text: beyond the bound, and for
// every episode this queue never saw (another worker's, a crash, a restart), the replay in
// materialiseEvents still does the work.
//
// Twelfth round: the queue holds the engine's event objects (immutable once the episode is
// over), not their stored text. Serialising at the offer cost the serving thread ~65 ms of CPU
// per 1,000 steps at the last step; now the rows are built when the log is written (logRows),
// by the idle worker, and under serve:env inserted by the SQLite writer thread. Held as objects
// a log takes about the heap its text did (measured 13.6 KB against 15.0 KB an episode over
// the bench mix), so the bound's meaning stays "text of this size", counted as an estimate per
// event (EVENT_BYTES_ESTIMATE).
import type { EpisodeEvent } from '@/server/engine/types';
import { eventRows, type EventRow, type SerialisedBreakdown } from '@/server/episodes/sqlite-store/rows';

/** Default bounds: ~20 s of a saturated two-core server's finished episodes (~15 KB of text each, round 12). */
export const FINISHED_LOGS_DEFAULTS = { maxEpisodes: 4096, maxBytes: 64 * 1024 * 1024 } as const;

/**
 * Stored text an event is counted for by the byte bound: 1 KB. Measured over the bench mix
 * (512 oracle episodes, every env): 814 characters an event on average; per env the mean is
 * 439 (CART) to 2,008 (STATUS), one episode's mean 291 to 4,581. The bound is an estimate, not
 * the exact text (that would mean serialising on the serving thread, which this round moved):
 * STATUS-heavy traffic holds ~2× the bound's text, its longest episodes up to ~4.5×.
 */
export const EVENT_BYTES_ESTIMATE = 1024;

export interface FinishedLog {
  id: string;
  /** Every event of the episode, as the engine logged them (not copied, never changed). */
  events: readonly EpisodeEvent[];
  /** The Episode row's breakdown and its text, for the reward event's row (eventRows reuses it). */
  breakdown: SerialisedBreakdown | null;
  /** The estimate the byte bound counts (events × EVENT_BYTES_ESTIMATE). */
  bytes: number;
}

/** A log's rows, byte for byte what the eager writers store. */
export const logRows = (log: Pick<FinishedLog, 'id' | 'events' | 'breakdown'>): { id: string; rows: EventRow[] } => ({
  id: log.id,
  rows: eventRows(log.events, 0, log.breakdown),
});

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

  /** The estimated text held (EVENT_BYTES_ESTIMATE an event). */
  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * Keeps a finished episode's log (its last step committed). Returns false, keeping nothing,
   * when the queue is full: that episode's events are replayed later instead. Nothing is
   * serialised here: the serving thread only files the reference.
   */
  offer(id: string, events: readonly EpisodeEvent[], breakdown: SerialisedBreakdown | null = null): boolean {
    const bytes = events.length * EVENT_BYTES_ESTIMATE;
    if (this.size >= this.bounds.maxEpisodes || this.heldBytes + bytes > this.bounds.maxBytes) {
      this.stats.refused++;
      return false;
    }
    this.logs.push({ id, events, breakdown, bytes });
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

-- Issue 10, round 10 (task actlog): the trainer recorder stores per step only the action and the
-- episode's progress; its events are derived (replayed from config + actions) and materialised
-- later by server/episodes/materialise.ts. "eventsStored" is the watermark: how many of the
-- episode's "eventCount" events are stored; NULL (every row before this, every other writer)
-- means all of them. Written by hand.
ALTER TABLE "Episode" ADD COLUMN "eventsStored" INTEGER;

-- The episodes whose events wait (a reader's or the idle server's "all pending"): small, as it
-- only ever holds the episodes recorded since the last materialisation.
CREATE INDEX "Episode_events_pending_idx" ON "Episode"("id") WHERE "eventsStored" < "eventCount";

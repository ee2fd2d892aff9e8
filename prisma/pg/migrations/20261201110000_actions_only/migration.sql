-- Derived by npm run db:pg:sync by prisma migrate diff, not by hand.
-- AlterTable
ALTER TABLE "Episode" ADD COLUMN     "eventsStored" INTEGER;


-- Issue 10, round 10 (task actlog), by hand: the episodes whose events wait to be materialised
-- (server/episodes/materialise.ts; NULL = all stored, so not listed).
CREATE INDEX "Episode_events_pending_idx" ON "Episode"("id") WHERE "eventsStored" < "eventCount";

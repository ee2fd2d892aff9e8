-- Events are stored with their step by the one episode writer (server/episodes/writer.ts): no
-- deferred events, so no watermark. An episode a deferred-events server left with fewer stored
-- events than "eventCount" keeps its actions; the episode service stores the missing events
-- (by replay) the first time it rebuilds it (server/episodes/live.ts).
DROP INDEX IF EXISTS "Episode_events_pending_idx";
ALTER TABLE "Episode" DROP COLUMN "eventsStored";

-- One capability-token scheme for every seat: HMAC-signed tokens (server/episodes/tokens.ts),
-- nothing stored. Tokens issued against a stored hash before this migration no longer open
-- their episode's agent seat (the admin still does).
ALTER TABLE "Episode" DROP COLUMN "capabilityHash";

-- Store (round 4): full-text indexing and the tool-call count leave the acknowledgement path.
-- The per-event triggers (json_extract + an FTS5 insert per message or tool call, and an
-- UPDATE of the episode per tool call) ran inside every step's transaction. Now a catch-up
-- indexes every event above "EpisodeTextIndexed"."upTo" in one statement per table
-- (server/episodes/sqlite-store/text-index.ts): before inspector queries, inside bulk
-- imports, and in the background about a second after a write. The delete trigger stays
-- (deleting is not on the step path). Written by hand.

DROP TRIGGER "EpisodeText_insert";
DROP TRIGGER "Episode_toolCalls_insert";
-- Bulk loads no longer need to switch the triggers off.
DROP TABLE "InspectorBulkLoad";

-- The highest EpisodeEvent id already indexed: one row. Every existing event was indexed by
-- the triggers dropped above.
CREATE TABLE "EpisodeTextIndexed" ("upTo" INTEGER NOT NULL);
INSERT INTO "EpisodeTextIndexed" ("upTo") SELECT coalesce(max("id"), 0) FROM "EpisodeEvent";

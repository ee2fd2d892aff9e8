-- Written by hand (task pg, round 6, issue 11 item 1 on PostgreSQL): one search row per
-- episode. A search reads EpisodeSearchDoc (one tsvector of every word of the episode's
-- messages and tool calls, without positions, GIN index) instead of one row per event; the
-- per-event rows of EpisodeSearch stay, to check a phrase or several words inside one event
-- (SQLite's semantics) for the episodes the episode row let through. Kept by the same drain
-- (server/inspector/pg-search.ts); docs/inspector.md, "PostgreSQL".
CREATE TABLE "EpisodeSearchDoc" (
  "episodeId" TEXT NOT NULL PRIMARY KEY REFERENCES "Episode"("id") ON DELETE CASCADE,
  "doc" tsvector NOT NULL
);
CREATE INDEX "EpisodeSearchDoc_doc_idx" ON "EpisodeSearchDoc" USING GIN ("doc");

-- The per-event check reads an episode's rows.
CREATE INDEX "EpisodeSearch_episodeId_idx" ON "EpisodeSearch" ("episodeId");

-- Episodes indexed before this migration.
INSERT INTO "EpisodeSearchDoc" ("episodeId", "doc")
SELECT s."episodeId", array_to_tsvector(array_agg(DISTINCT w."lexeme"))
FROM "EpisodeSearch" s CROSS JOIN LATERAL unnest(s."doc") AS w
WHERE EXISTS (SELECT 1 FROM "Episode" e WHERE e."id" = s."episodeId")
GROUP BY s."episodeId";

-- A search no longer reads the per-event rows through an index of their words (only by episode,
-- above): that GIN index cost every indexed event an insert into it.
DROP INDEX "EpisodeSearch_doc_idx";

-- A bulk copy of stored episodes (server/inspector/pg-copy.ts) writes the copies' toolCalls and
-- search rows itself, in one statement each: inside it (SET LOCAL ecomrlve.copying = 'on') the
-- per-row triggers step aside. Every other writer is counted and queued as before.
CREATE OR REPLACE FUNCTION "Episode_toolCalls_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ecomrlve.copying', true) = 'on' THEN RETURN NULL; END IF;
  UPDATE "Episode" SET "toolCalls" = "toolCalls" + 1 WHERE "id" = NEW."episodeId";
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "EpisodeSearch_enqueue"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ecomrlve.copying', true) = 'on' THEN RETURN NULL; END IF;
  INSERT INTO "EpisodeSearchPending" ("eventId") VALUES (NEW."id");
  RETURN NULL;
END $$;

-- The list's sort by reward (orderOf: NULLs last, then the reward, ties by byte-wise id) walked
-- in order, both ways: a common word sorted by reward reads the page's first matches instead of
-- sorting all of them.
CREATE INDEX "Episode_inspector_reward_asc_idx" ON "Episode" (("reward" IS NULL), "reward", "id" COLLATE "C");
CREATE INDEX "Episode_inspector_reward_desc_idx" ON "Episode" (("reward" IS NULL), "reward" DESC, "id" COLLATE "C" DESC);

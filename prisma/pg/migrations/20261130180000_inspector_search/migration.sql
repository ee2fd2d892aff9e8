-- Written by hand (task pginsp, issue 11 item 1 on PostgreSQL): the inspector's full-text
-- index and the indexes its filters and sorts use. SQLite has the FTS5 table EpisodeText and
-- the covering index Episode_inspector_cover_idx instead (prisma/migrations/20261130120000_inspector).

-- One tsvector per message or tool call (config 'simple': no stemming, no stop words; the
-- words are made by server/inspector/search-text.ts, as SQLite's unicode61 tokenizer makes them).
CREATE TABLE "EpisodeSearch" (
  "eventId" INTEGER NOT NULL PRIMARY KEY REFERENCES "EpisodeEvent"("id") ON DELETE CASCADE,
  "episodeId" TEXT NOT NULL,
  "doc" tsvector NOT NULL
);
CREATE INDEX "EpisodeSearch_doc_idx" ON "EpisodeSearch" USING GIN ("doc");

-- Events waiting to be indexed. The trigger only queues the id (any writer, one small insert);
-- server/inspector/pg-search.ts indexes the queue before a search reads the index.
CREATE TABLE "EpisodeSearchPending" (
  "eventId" INTEGER NOT NULL PRIMARY KEY REFERENCES "EpisodeEvent"("id") ON DELETE CASCADE
);

CREATE FUNCTION "EpisodeSearch_enqueue"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "EpisodeSearchPending" ("eventId") VALUES (NEW."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "EpisodeSearch_insert" AFTER INSERT ON "EpisodeEvent"
FOR EACH ROW WHEN (NEW."kind" IN ('customer_message', 'agent_message', 'tool_call'))
EXECUTE FUNCTION "EpisodeSearch_enqueue"();

-- Events stored before this migration are queued too.
INSERT INTO "EpisodeSearchPending" ("eventId")
SELECT "id" FROM "EpisodeEvent" WHERE "kind" IN ('customer_message', 'agent_message', 'tool_call');

-- Filters (each one indexed; PostgreSQL combines them with bitmap scans) and the default sort.
-- Text sorts are byte-wise (COLLATE "C", as SQLite sorts), so the tie-break id is too.
CREATE INDEX "Episode_inspector_created_idx" ON "Episode" ("createdAt", "id" COLLATE "C");
CREATE INDEX "Episode_inspector_env_d_idx" ON "Episode" ("envId", "d");
CREATE INDEX "Episode_inspector_outcome_idx" ON "Episode" ("status", "isCorrect");
CREATE INDEX "Episode_inspector_reward_idx" ON "Episode" ("reward");
CREATE INDEX "Episode_inspector_player_idx" ON "Episode" ("player");
CREATE INDEX "Episode_inspector_run_idx" ON "Episode" ("runLabel");
CREATE INDEX "Episode_inspector_catalog_idx" ON "Episode" ("catalogId");
CREATE INDEX "Episode_inspector_origin_idx" ON "Episode" ("origin");

-- Written by hand: the PostgreSQL equivalents of the SQLite triggers in
-- prisma/migrations/20261130120000_inspector (Episode_toolCalls_insert) and
-- prisma/migrations/20261130140000_revealed_link (Episode_revealed_flag). The FTS5 table
-- EpisodeText, its owner table and their triggers are SQLite-only (docs/env-server.md).

-- Episode.toolCalls counts the episode's tool_call events, whoever writes them.
CREATE FUNCTION "Episode_toolCalls_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Episode" SET "toolCalls" = "toolCalls" + 1 WHERE "id" = NEW."episodeId";
  RETURN NULL;
END $$;

CREATE TRIGGER "Episode_toolCalls_insert" AFTER INSERT ON "EpisodeEvent"
FOR EACH ROW WHEN (NEW."kind" = 'tool_call') EXECUTE FUNCTION "Episode_toolCalls_count"();

-- goalRevealed follows revealedAt (the seat writes the timestamp; the inspector filters on the flag).
CREATE FUNCTION "Episode_revealed_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."goalRevealed" := NEW."revealedAt" IS NOT NULL;
  RETURN NEW;
END $$;

CREATE TRIGGER "Episode_revealed_flag" BEFORE UPDATE OF "revealedAt" ON "Episode"
FOR EACH ROW EXECUTE FUNCTION "Episode_revealed_sync"();

-- Inspector (issue 11): filter columns, import provenance, and a full-text index over
-- messages and tool calls. Written by hand (SQLite dialect).

ALTER TABLE "Episode" ADD COLUMN "goalRevealed" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Episode" ADD COLUMN "origin" TEXT NOT NULL DEFAULT 'engine';
ALTER TABLE "Episode" ADD COLUMN "runLabel" TEXT;
ALTER TABLE "Episode" ADD COLUMN "toolCalls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Episode" ADD COLUMN "recorded" TEXT;
ALTER TABLE "Episode" ADD COLUMN "rescored" TEXT;
ALTER TABLE "Episode" ADD COLUMN "prompts" TEXT;

-- Covering index for the list: filters, counts and sorts read this narrow index instead of the
-- wide rows (breakdown and hidden goal are kilobytes of JSON per episode). The list queries
-- name it (INDEXED BY): single-column indexes led the planner to read wide rows.
CREATE INDEX "Episode_inspector_cover_idx" ON "Episode"("envId", "d", "status", "isCorrect", "reward", "terminationReason", "player",
  "runLabel", "curriculumRunId", "catalogId", "origin", "goalRevealed", "createdAt", "turn", "toolCalls", "seed", "id");

-- Full-text index: one row per message or tool call, rowid = EpisodeEvent.id (contentless:
-- the text lives in EpisodeEvent.payload; the index only answers "which events match").
CREATE VIRTUAL TABLE "EpisodeText" USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');

-- Which episode each indexed event belongs to, in a narrow table (EpisodeEvent rows carry
-- kilobytes of payload; reading them to map search hits to episodes was the slow part).
CREATE TABLE "EpisodeTextOwner" ("rowid" INTEGER NOT NULL PRIMARY KEY, "episodeId" TEXT NOT NULL);
CREATE INDEX "EpisodeTextOwner_episodeId_idx" ON "EpisodeTextOwner"("episodeId");

CREATE TRIGGER "EpisodeText_insert" AFTER INSERT ON "EpisodeEvent"
WHEN new."kind" IN ('customer_message', 'agent_message', 'tool_call')
BEGIN
  INSERT INTO "EpisodeTextOwner"("rowid", "episodeId") VALUES (new."id", new."episodeId");
  INSERT INTO "EpisodeText"(rowid, body) VALUES (
    new."id",
    CASE new."kind"
      WHEN 'tool_call' THEN
        coalesce(json_extract(new."payload", '$.name'), '') || ' ' ||
        coalesce(json_extract(new."payload", '$.args'), '') || ' ' ||
        coalesce(json_extract(new."payload", '$.result'), '') || ' ' ||
        coalesce(json_extract(new."payload", '$.error'), '')
      ELSE coalesce(json_extract(new."payload", '$.text'), '')
    END
  );
END;

CREATE TRIGGER "EpisodeText_delete" AFTER DELETE ON "EpisodeEvent"
WHEN old."kind" IN ('customer_message', 'agent_message', 'tool_call')
BEGIN
  DELETE FROM "EpisodeText" WHERE rowid = old."id";
  DELETE FROM "EpisodeTextOwner" WHERE "rowid" = old."id";
END;

CREATE TRIGGER "Episode_toolCalls_insert" AFTER INSERT ON "EpisodeEvent"
WHEN new."kind" = 'tool_call'
BEGIN
  UPDATE "Episode" SET "toolCalls" = "toolCalls" + 1 WHERE "id" = new."episodeId";
END;

-- Existing rows.
INSERT INTO "EpisodeTextOwner"("rowid", "episodeId")
SELECT "id", "episodeId" FROM "EpisodeEvent" WHERE "kind" IN ('customer_message', 'agent_message', 'tool_call');
INSERT INTO "EpisodeText"(rowid, body)
SELECT "id",
  CASE "kind"
    WHEN 'tool_call' THEN
      coalesce(json_extract("payload", '$.name'), '') || ' ' ||
      coalesce(json_extract("payload", '$.args'), '') || ' ' ||
      coalesce(json_extract("payload", '$.result'), '') || ' ' ||
      coalesce(json_extract("payload", '$.error'), '')
    ELSE coalesce(json_extract("payload", '$.text'), '')
  END
FROM "EpisodeEvent" WHERE "kind" IN ('customer_message', 'agent_message', 'tool_call');

UPDATE "Episode" SET "toolCalls" = (
  SELECT count(*) FROM "EpisodeEvent" WHERE "EpisodeEvent"."episodeId" = "Episode"."id" AND "EpisodeEvent"."kind" = 'tool_call'
);

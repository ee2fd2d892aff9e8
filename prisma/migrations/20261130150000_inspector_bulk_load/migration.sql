-- Inspector bulk load (issue 11, round 2): imports and bench seeding write thousands of
-- episodes in one transaction. Indexing each event through the per-row triggers cost more
-- than everything else together (FTS row by row, and a covering-index UPDATE per tool call),
-- so a bulk writer puts a row in "InspectorBulkLoad" inside its transaction, the triggers
-- skip while it is there, and the writer indexes its new events in one INSERT … SELECT and
-- writes "toolCalls" itself before it commits (server/inspector/insert.ts). The row never
-- outlives the transaction (SQLite has one writer; a rollback removes it). Written by hand.

CREATE TABLE "InspectorBulkLoad" ("on" INTEGER NOT NULL PRIMARY KEY);

DROP TRIGGER "EpisodeText_insert";
CREATE TRIGGER "EpisodeText_insert" AFTER INSERT ON "EpisodeEvent"
WHEN new."kind" IN ('customer_message', 'agent_message', 'tool_call') AND NOT EXISTS (SELECT 1 FROM "InspectorBulkLoad")
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

DROP TRIGGER "Episode_toolCalls_insert";
CREATE TRIGGER "Episode_toolCalls_insert" AFTER INSERT ON "EpisodeEvent"
WHEN new."kind" = 'tool_call' AND NOT EXISTS (SELECT 1 FROM "InspectorBulkLoad")
BEGIN
  UPDATE "Episode" SET "toolCalls" = "toolCalls" + 1 WHERE "id" = new."episodeId";
END;

-- Inspector (issue 11): filter columns, import provenance, and a full-text index over
-- messages and tool calls. Written by hand (SQLite dialect).

ALTER TABLE "Episode" ADD COLUMN "goalRevealed" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Episode" ADD COLUMN "origin" TEXT NOT NULL DEFAULT 'engine';
ALTER TABLE "Episode" ADD COLUMN "runLabel" TEXT;
ALTER TABLE "Episode" ADD COLUMN "toolCalls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Episode" ADD COLUMN "recorded" TEXT;
ALTER TABLE "Episode" ADD COLUMN "rescored" TEXT;
ALTER TABLE "Episode" ADD COLUMN "prompts" TEXT;

CREATE INDEX "Episode_envId_d_idx" ON "Episode"("envId", "d");
CREATE INDEX "Episode_reward_idx" ON "Episode"("reward");
CREATE INDEX "Episode_player_idx" ON "Episode"("player");
CREATE INDEX "Episode_runLabel_idx" ON "Episode"("runLabel");
CREATE INDEX "Episode_turn_idx" ON "Episode"("turn");

-- Full-text index: one row per message or tool call, rowid = EpisodeEvent.id (contentless:
-- the text lives in EpisodeEvent.payload; the index only answers "which events match").
CREATE VIRTUAL TABLE "EpisodeText" USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');

CREATE TRIGGER "EpisodeText_insert" AFTER INSERT ON "EpisodeEvent"
WHEN new."kind" IN ('customer_message', 'agent_message', 'tool_call')
BEGIN
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
END;

CREATE TRIGGER "Episode_toolCalls_insert" AFTER INSERT ON "EpisodeEvent"
WHEN new."kind" = 'tool_call'
BEGIN
  UPDATE "Episode" SET "toolCalls" = "toolCalls" + 1 WHERE "id" = new."episodeId";
END;

-- Existing rows.
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

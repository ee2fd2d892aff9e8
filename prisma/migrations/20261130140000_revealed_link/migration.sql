-- One fact, two readers: the seat records a reveal in "revealedAt"; the inspector's list filters
-- and covering index read "goalRevealed". A trigger keeps the flag in step with the timestamp.
UPDATE "Episode" SET "goalRevealed" = ("revealedAt" IS NOT NULL);

CREATE TRIGGER "Episode_revealed_flag" AFTER UPDATE OF "revealedAt" ON "Episode"
BEGIN
  UPDATE "Episode" SET "goalRevealed" = (NEW."revealedAt" IS NOT NULL) WHERE "id" = NEW."id";
END;

-- issue 8 (seat): reveals, capability tokens, per-episode byte count, idempotent step keys
ALTER TABLE "Episode" ADD COLUMN "revealedAt" DATETIME;
ALTER TABLE "Episode" ADD COLUMN "capabilityHash" TEXT;
ALTER TABLE "Episode" ADD COLUMN "storedBytes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "EpisodeAction" ADD COLUMN "stepKey" TEXT;
ALTER TABLE "EpisodeAction" ADD COLUMN "eventEnd" INTEGER;
CREATE UNIQUE INDEX "EpisodeAction_episodeId_stepKey_key" ON "EpisodeAction"("episodeId", "stepKey");

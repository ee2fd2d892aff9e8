-- rewards-harness (issue 7.1): the reward revision each episode was scored under (rows that
-- exist today were scored under revision 1), and re-scores kept beside the original reward.
ALTER TABLE "Episode" ADD COLUMN "rewardRevision" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "EpisodeRescore" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "episodeId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fromRevision" INTEGER NOT NULL,
    "toRevision" INTEGER NOT NULL,
    "replay" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "reward" REAL,
    "isCorrect" BOOLEAN,
    "terminationReason" TEXT,
    "breakdown" TEXT,
    "components" TEXT NOT NULL,
    CONSTRAINT "EpisodeRescore_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "EpisodeRescore_episodeId_createdAt_idx" ON "EpisodeRescore"("episodeId", "createdAt");

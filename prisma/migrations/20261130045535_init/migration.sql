-- CreateTable
CREATE TABLE "Episode" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "envId" TEXT NOT NULL,
    "d" INTEGER NOT NULL,
    "seed" INTEGER NOT NULL,
    "axisOverrides" TEXT NOT NULL DEFAULT '{}',
    "axes" TEXT NOT NULL,
    "weights" TEXT,
    "catalogId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "terminationReason" TEXT,
    "reward" REAL,
    "isCorrect" BOOLEAN,
    "breakdown" TEXT,
    "turn" INTEGER NOT NULL DEFAULT 0,
    "player" TEXT NOT NULL DEFAULT 'human',
    "hiddenGoal" TEXT NOT NULL,
    "eventCount" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "EpisodeEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "episodeId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    CONSTRAINT "EpisodeEvent_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EpisodeAction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "episodeId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "raw" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "EpisodeAction_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Episode_createdAt_idx" ON "Episode"("createdAt");

-- CreateIndex
CREATE INDEX "Episode_envId_createdAt_idx" ON "Episode"("envId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "EpisodeEvent_episodeId_seq_key" ON "EpisodeEvent"("episodeId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "EpisodeAction_episodeId_seq_key" ON "EpisodeAction"("episodeId", "seq");

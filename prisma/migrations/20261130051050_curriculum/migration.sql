-- CreateTable
CREATE TABLE "CurriculumRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "name" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "catalogId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "episodeCount" INTEGER NOT NULL DEFAULT 0
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Episode" (
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
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "curriculumRunId" TEXT,
    CONSTRAINT "Episode_curriculumRunId_fkey" FOREIGN KEY ("curriculumRunId") REFERENCES "CurriculumRun" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Episode" ("axes", "axisOverrides", "breakdown", "catalogId", "createdAt", "d", "envId", "eventCount", "hiddenGoal", "id", "isCorrect", "player", "reward", "seed", "status", "terminationReason", "turn", "updatedAt", "weights") SELECT "axes", "axisOverrides", "breakdown", "catalogId", "createdAt", "d", "envId", "eventCount", "hiddenGoal", "id", "isCorrect", "player", "reward", "seed", "status", "terminationReason", "turn", "updatedAt", "weights" FROM "Episode";
DROP TABLE "Episode";
ALTER TABLE "new_Episode" RENAME TO "Episode";
CREATE INDEX "Episode_createdAt_idx" ON "Episode"("createdAt");
CREATE INDEX "Episode_envId_createdAt_idx" ON "Episode"("envId", "createdAt");
CREATE INDEX "Episode_curriculumRunId_idx" ON "Episode"("curriculumRunId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "CurriculumRun_createdAt_idx" ON "CurriculumRun"("createdAt");

-- issue 9 (models-ui): who acted on each step, forks, batch runs, infrastructure failures
ALTER TABLE "Episode" ADD COLUMN "parentId" TEXT;
ALTER TABLE "Episode" ADD COLUMN "forkTurn" INTEGER;
ALTER TABLE "Episode" ADD COLUMN "runId" TEXT;
ALTER TABLE "Episode" ADD COLUMN "infraError" TEXT;
CREATE INDEX "Episode_parentId_idx" ON "Episode"("parentId");
CREATE INDEX "Episode_runId_idx" ON "Episode"("runId");

ALTER TABLE "EpisodeAction" ADD COLUMN "actor" TEXT;
ALTER TABLE "EpisodeAction" ADD COLUMN "modelRecord" TEXT;

CREATE TABLE "ModelRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "player" TEXT NOT NULL,
    "spec" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'running',
    "total" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "infraFailures" INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX "ModelRun_createdAt_idx" ON "ModelRun"("createdAt");

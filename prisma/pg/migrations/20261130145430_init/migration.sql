-- Derived by npm run db:pg:sync by prisma migrate diff, not by hand.
-- CreateTable
CREATE TABLE "Episode" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "envId" TEXT NOT NULL,
    "d" INTEGER NOT NULL,
    "seed" INTEGER NOT NULL,
    "axisOverrides" TEXT NOT NULL DEFAULT '{}',
    "axes" TEXT NOT NULL,
    "weights" TEXT,
    "catalogId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "terminationReason" TEXT,
    "reward" DOUBLE PRECISION,
    "isCorrect" BOOLEAN,
    "breakdown" TEXT,
    "turn" INTEGER NOT NULL DEFAULT 0,
    "player" TEXT NOT NULL DEFAULT 'human',
    "hiddenGoal" TEXT NOT NULL,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "curriculumRunId" TEXT,
    "engineVersion" INTEGER NOT NULL DEFAULT 1,
    "journeyEnvs" TEXT,
    "rewardRevision" INTEGER NOT NULL DEFAULT 1,
    "revealedAt" TIMESTAMP(3),
    "capabilityHash" TEXT,
    "storedBytes" INTEGER NOT NULL DEFAULT 0,
    "goalRevealed" BOOLEAN NOT NULL DEFAULT false,
    "origin" TEXT NOT NULL DEFAULT 'engine',
    "runLabel" TEXT,
    "toolCalls" INTEGER NOT NULL DEFAULT 0,
    "recorded" TEXT,
    "rescored" TEXT,
    "prompts" TEXT,
    "parentId" TEXT,
    "forkTurn" INTEGER,
    "runId" TEXT,
    "infraError" TEXT,

    CONSTRAINT "Episode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EpisodeEvent" (
    "id" SERIAL NOT NULL,
    "episodeId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,

    CONSTRAINT "EpisodeEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EpisodeAction" (
    "id" SERIAL NOT NULL,
    "episodeId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "raw" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stepKey" TEXT,
    "eventEnd" INTEGER,
    "actor" TEXT,
    "modelRecord" TEXT,

    CONSTRAINT "EpisodeAction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CurriculumRun" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "name" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "catalogId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "episodeCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CurriculumRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EpisodeRescore" (
    "id" TEXT NOT NULL,
    "episodeId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fromRevision" INTEGER NOT NULL,
    "toRevision" INTEGER NOT NULL,
    "replay" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "reward" DOUBLE PRECISION,
    "isCorrect" BOOLEAN,
    "terminationReason" TEXT,
    "breakdown" TEXT,
    "components" TEXT NOT NULL,

    CONSTRAINT "EpisodeRescore_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelConnection" (
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "config" TEXT NOT NULL,

    CONSTRAINT "ModelConnection_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "ModelRun" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "player" TEXT NOT NULL,
    "spec" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'running',
    "total" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "infraFailures" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ModelRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Episode_createdAt_idx" ON "Episode"("createdAt");

-- CreateIndex
CREATE INDEX "Episode_envId_createdAt_idx" ON "Episode"("envId", "createdAt");

-- CreateIndex
CREATE INDEX "Episode_parentId_idx" ON "Episode"("parentId");

-- CreateIndex
CREATE INDEX "Episode_runId_idx" ON "Episode"("runId");

-- CreateIndex
CREATE INDEX "Episode_curriculumRunId_idx" ON "Episode"("curriculumRunId");

-- CreateIndex
CREATE UNIQUE INDEX "EpisodeEvent_episodeId_seq_key" ON "EpisodeEvent"("episodeId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "EpisodeAction_episodeId_seq_key" ON "EpisodeAction"("episodeId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "EpisodeAction_episodeId_stepKey_key" ON "EpisodeAction"("episodeId", "stepKey");

-- CreateIndex
CREATE INDEX "CurriculumRun_createdAt_idx" ON "CurriculumRun"("createdAt");

-- CreateIndex
CREATE INDEX "EpisodeRescore_episodeId_createdAt_idx" ON "EpisodeRescore"("episodeId", "createdAt");

-- CreateIndex
CREATE INDEX "ModelRun_createdAt_idx" ON "ModelRun"("createdAt");

-- AddForeignKey
ALTER TABLE "Episode" ADD CONSTRAINT "Episode_curriculumRunId_fkey" FOREIGN KEY ("curriculumRunId") REFERENCES "CurriculumRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EpisodeEvent" ADD CONSTRAINT "EpisodeEvent_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EpisodeAction" ADD CONSTRAINT "EpisodeAction_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EpisodeRescore" ADD CONSTRAINT "EpisodeRescore_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;


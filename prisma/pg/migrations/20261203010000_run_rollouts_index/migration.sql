-- Derived by npm run db:pg:sync by prisma migrate diff, not by hand.
-- CreateIndex
CREATE INDEX "Episode_run_rollouts_idx" ON "Episode"("player", "status", "trainStep", "rolloutGroup", "envId", "d", "seed", "reward", "isCorrect", "terminationReason", "turn", "createdAt", "id");


-- The run view (issue 30) reads a trainer run's rollouts from this index alone: the Episode rows
-- are wide (goal, breakdown) and trainStep/rolloutGroup are stored after them, so reading them
-- from the table took seconds of page reads at 100,000 rollouts.
CREATE INDEX "Episode_run_rollouts_idx" ON "Episode"("player", "status", "trainStep", "rolloutGroup", "envId", "d", "seed", "reward", "isCorrect", "terminationReason", "turn", "createdAt", "id");

-- Training metadata (issue 30): the trainer's step and explicit group of each rollout.
ALTER TABLE "Episode" ADD COLUMN "trainStep" INTEGER;
ALTER TABLE "Episode" ADD COLUMN "rolloutGroup" TEXT;

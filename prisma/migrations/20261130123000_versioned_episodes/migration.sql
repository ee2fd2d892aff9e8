-- Versioned episodes (issue 12.4): the engine rule version and, for JOURNEY, the env set it drew from.
ALTER TABLE "Episode" ADD COLUMN "engineVersion" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "Episode" ADD COLUMN "journeyEnvs" TEXT;

-- Every JOURNEY stored so far drew from the seven atomic envs, in this order.
UPDATE "Episode" SET "journeyEnvs" = '["PD","SUB","CART","RETURN","STATUS","POLICY","BUNDLE"]' WHERE "envId" = 'JOURNEY';

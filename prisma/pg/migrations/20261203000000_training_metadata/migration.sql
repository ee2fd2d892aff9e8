-- Derived by npm run db:pg:sync by prisma migrate diff, not by hand.
-- AlterTable
ALTER TABLE "Episode" ADD COLUMN     "rolloutGroup" TEXT,
ADD COLUMN     "trainStep" INTEGER;


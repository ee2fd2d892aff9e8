-- Derived by npm run db:pg:sync by prisma migrate diff, not by hand.
-- AlterTable
ALTER TABLE "Episode" DROP COLUMN "eventsStored",
DROP COLUMN "capabilityHash";

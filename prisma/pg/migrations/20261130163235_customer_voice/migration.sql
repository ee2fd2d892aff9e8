-- Derived by npm run db:pg:sync by prisma migrate diff, not by hand.
-- AlterTable
ALTER TABLE "Episode" ADD COLUMN     "customerVoice" TEXT;

-- CreateTable
CREATE TABLE "CustomerRewrite" (
    "id" SERIAL NOT NULL,
    "episodeId" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,
    "template" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "fallback" TEXT,
    "record" TEXT,

    CONSTRAINT "CustomerRewrite_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CustomerRewrite_episodeId_turn_key" ON "CustomerRewrite"("episodeId", "turn");

-- AddForeignKey
ALTER TABLE "CustomerRewrite" ADD CONSTRAINT "CustomerRewrite_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;


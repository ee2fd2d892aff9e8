-- issue 9 (models, item 8): the optional LLM customer
ALTER TABLE "Episode" ADD COLUMN "customerVoice" TEXT;

CREATE TABLE "CustomerRewrite" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "episodeId" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,
    "template" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "fallback" TEXT,
    "record" TEXT,
    CONSTRAINT "CustomerRewrite_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "CustomerRewrite_episodeId_turn_key" ON "CustomerRewrite"("episodeId", "turn");

-- models (issue 9): saved model connections; no API key column by design
-- CreateTable
CREATE TABLE "ModelConnection" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "config" TEXT NOT NULL
);

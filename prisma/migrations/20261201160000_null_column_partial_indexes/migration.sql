-- Issue 10, round 12 (task commit), by hand: the indexes on Episode's parentId, runId and
-- curriculumRunId hold only the rows that have one. Trainer episodes (most of the store) leave
-- all three NULL, and every reset appended a (NULL, rowid) entry to each, a page per index per
-- group commit. The queries that use them ask `col = ?` (or IN), which implies IS NOT NULL, so
-- SQLite and PostgreSQL still use them (EXPLAIN QUERY PLAN, null-column-indexes.test.ts). The
-- names stay the ones prisma/schema.prisma declares (@@index), so Prisma's schema is unchanged.
DROP INDEX "Episode_parentId_idx";
CREATE INDEX "Episode_parentId_idx" ON "Episode"("parentId") WHERE "parentId" IS NOT NULL;
DROP INDEX "Episode_runId_idx";
CREATE INDEX "Episode_runId_idx" ON "Episode"("runId") WHERE "runId" IS NOT NULL;
DROP INDEX "Episode_curriculumRunId_idx";
CREATE INDEX "Episode_curriculumRunId_idx" ON "Episode"("curriculumRunId") WHERE "curriculumRunId" IS NOT NULL;

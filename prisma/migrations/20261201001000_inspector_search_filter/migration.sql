-- Inspector (round 6, task `insp`): a search checks the list's filters on every episode with a
-- matching event ("blue" matches 48,000 of 100,000 episodes) before it has a page. Through the
-- id's own index each check also read the episode's wide row (hidden goal and breakdown are
-- kilobytes); this index holds the id and every column a filter reads, so the check reads it
-- alone (search.ts names it). Halves the CPU of a common word with a filter that excludes most
-- of its episodes (docs/inspector.md, "Performance"). SQLite only; written by hand.
CREATE INDEX "Episode_search_filter_idx" ON "Episode"("id", "envId", "d", "status", "isCorrect", "reward", "terminationReason",
  "player", "runLabel", "curriculumRunId", "catalogId", "origin", "goalRevealed", "createdAt");

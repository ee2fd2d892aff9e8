// vitest globalSetup: a directory for the run's shared PostgreSQL server (shared-postgres.ts
// starts it when a test file first asks) and, when the run ends, the server stopped and the
// directory removed. Nothing starts when no test file needs PostgreSQL.
import { mkdtempSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { stopCluster } from './postgres';

export default function setup(project: TestProject) {
  const dir = mkdtempSync('/tmp/ecpg-'); // short: the server's socket lives in it (108-byte limit)
  project.provide('postgresDir', dir);
  return () => stopCluster(dir);
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

/** Real PostgreSQL for every test file: TEST_DATABASE_URL (CI), or an embedded one started for this run. */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('postgresUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'mixcrate-test-pg-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const pg = await startEmbeddedPostgres(dir, port, quiet);
  project.provide('postgresUrl', pg.url);
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

import type { TestProject } from 'vitest/node';
import { createTestDatabase, startApi } from './support/api-server';
import { ensureWebBuild } from './support/web-build';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the API (serving web/dist) listens for this run. */
    baseUrl: string;
    /** The API's database when the run has one of its own in TEST_DATABASE_URL's server (CI); null on the embedded one. */
    databaseUrl: string | null;
  }
}

/** Once per e2e run: a current production build of web/, a database of its own, and the real API serving both. */
export default async function setup(project: TestProject) {
  ensureWebBuild();
  const database = await createTestDatabase();
  let api: Awaited<ReturnType<typeof startApi>>;
  try {
    api = await startApi(database.url);
  } catch (error) {
    await database.drop();
    throw error;
  }
  project.provide('baseUrl', api.url);
  project.provide('databaseUrl', database.url ?? null);
  return async () => {
    await api.stop();
    await database.drop();
  };
}

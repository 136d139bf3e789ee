import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresCluster } from './postgres.js';

/**
 * The calling test file's (or describe block's) own PostgreSQL cluster: its beforeAll starts it (60 s, for a run
 * whose template cluster is not made yet: initdb), its afterAll stops it. What is returned stands for that cluster
 * from the moment the hook has started it; used before (while the file is collected, or in an earlier hook) it throws
 * rather than hand out a cluster that does not exist yet. A module of its own, apart from postgres.ts, which the
 * benches import outside vitest.
 */
export function usePostgres(): PostgresCluster {
  let started: PostgresCluster | undefined;
  beforeAll(async () => {
    started = await startPostgres();
  }, 60_000);
  // A cluster that failed to start has nothing to stop: the beforeAll's error is the one to read.
  afterAll(() => started?.stop());
  const cluster = (): PostgresCluster => {
    if (started) return started;
    throw new Error(
      'usePostgres(): the cluster is started by its beforeAll hook; use it in a test or a later hook, not while the file is collected',
    );
  };
  return {
    get port() {
      return cluster().port;
    },
    url: (database) => cluster().url(database),
    database: () => cluster().database(),
    stop: () => cluster().stop(),
    restart: (down) => cluster().restart(down),
  };
}

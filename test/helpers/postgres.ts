// A throw-away PostgreSQL cluster per test file (scripts/pg-cluster.mjs):
// started before the file's tests, torn down after. Without the binaries the
// tests fail under CI=1 and skip, saying so, elsewhere.
import { afterAll, beforeAll } from 'vitest';
import { type Cluster, findPgBin, startCluster } from '../../scripts/pg-cluster.mjs';

export const PG_AVAILABLE = findPgBin() !== undefined;
if (!PG_AVAILABLE) {
  const message = 'PostgreSQL binaries (initdb, pg_ctl) not found: install Debian\'s postgresql package or set CHRYS_PG_BIN';
  if (process.env.CI) throw new Error(`${message}; the PostgreSQL outbox tests cannot run`);
  console.warn(`SKIPPING the PostgreSQL outbox tests: ${message}`);
}

/** The file's cluster; call inside a test (it starts in beforeAll). */
export function useCluster(): () => Cluster {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    if (PG_AVAILABLE) cluster = await startCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());
  return () => {
    if (!cluster) throw new Error('no cluster');
    return cluster;
  };
}

// A throw-away PostgreSQL cluster per test file (scripts/pg-cluster.mjs):
// started before the file's tests, torn down after (and one per test for a
// test that stops the server). Without the binaries the
// tests fail under CI=1 and skip, saying so, elsewhere.
import { type TestContext, afterAll, beforeAll } from 'vitest';
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

/**
 * A cluster of this test's own, torn down when the test ends: for a test that
 * stops or restarts the server while other tests of the file run at once on
 * the file's cluster.
 */
export async function ownCluster(t: TestContext): Promise<Cluster> {
  const cluster = await startCluster();
  t.onTestFinished(() => cluster.stop());
  return cluster;
}

// Claiming a job: one lock directory per job under outbox/locks/, held (and
// refreshed) while the job runs. A claimant that crashed stops refreshing;
// after 10 s its lock is stale and the next claimant takes it over.

import lockfile from 'proper-lockfile';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from '../base/runtime-layout.js';
import { jobPath, locksDir } from './store.js';

export const LOCK_STALE_MS = 10_000;

export type Claim<T> = { claimed: false } | { claimed: true; value: T };

/**
 * Runs `fn` holding the job's lock; `{claimed: false}` when someone else holds it. Always releases.
 * `staleMs` is for tests (the lock library's floor is 2 s); everything else uses LOCK_STALE_MS.
 */
export async function withJobLock<T>(configDir: string, jobId: string, fn: () => Promise<T>, staleMs = LOCK_STALE_MS): Promise<Claim<T>> {
  ensureDir(locksDir(configDir));
  let release: () => void;
  try {
    // Synchronous: the claim's few calls cost less in place than through the thread pool. The sync API
    // probes the filesystem's mtime precision again on every claim (it caches the answer on an fs object
    // it builds per call), which may date the lock up to a second ahead: a dead holder's lock is then
    // taken over up to a second after LOCK_STALE_MS, never before.
    release = lockfile.lockSync(jobPath(configDir, 'pending', jobId), {
      realpath: false,
      lockfilePath: join(locksDir(configDir), `${jobId}.lock`),
      stale: staleMs,
      // Stryker disable next-line ArithmeticOperator: the library clamps the refresh period to 1 s ..= stale/2, so a live holder stays fresh either way
      update: staleMs / 4,
      retries: 0,
      // A compromised lock (its directory removed under us) must not crash the runner:
      // the run carries on, and at-least-once delivery tolerates the rare double start.
      onCompromised: () => {},
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOCKED') return { claimed: false };
    throw e;
  }
  try {
    chmodSync(join(locksDir(configDir), `${jobId}.lock`), 0o700); // the library creates it under the umask
  } catch {
    // removed by a takeover meanwhile; the lock library reports that as compromised
  }
  try {
    return { claimed: true, value: await fn() };
  } finally {
    try {
      release();
    } catch {
      // compromised meanwhile (a takeover removed it): nothing of ours to remove
    }
  }
}

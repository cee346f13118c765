// Claiming a job: one lock directory per job under outbox/locks/, held (and
// refreshed) while the job runs. A claimant that crashed stops refreshing;
// after 10 s its lock is stale and the next claimant takes it over.

import lockfile from 'proper-lockfile';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { ensureDirOnce, forgetDir, jobPath, locksDir } from './store.js';

export const LOCK_STALE_MS = 10_000;

export type Claim<T> = { claimed: false } | { claimed: true; value: T };

/**
 * Runs `fn` holding the job's lock; `{claimed: false}` when someone else holds it. Always releases.
 * `staleMs` is for tests (the lock library's floor is 2 s); everything else uses LOCK_STALE_MS.
 */
export async function withJobLock<T>(configDir: string, jobId: string, fn: () => Promise<T>, staleMs = LOCK_STALE_MS): Promise<Claim<T>> {
  ensureDirOnce(locksDir(configDir));
  let release: () => Promise<void>;
  try {
    release = await lock(configDir, jobId, staleMs).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      // locks/ went away since this process made it: make it again, once
      forgetDir(locksDir(configDir));
      ensureDirOnce(locksDir(configDir));
      return lock(configDir, jobId, staleMs);
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOCKED') return { claimed: false };
    throw e;
  }
  try {
    fs.chmodSync(join(locksDir(configDir), `${jobId}.lock`), 0o700); // the library creates it under the umask
  } catch {
    // removed by a takeover meanwhile; the lock library reports that as compromised
  }
  try {
    return { claimed: true, value: await fn() };
  } finally {
    await release().catch(() => {});
  }
}

type Callback = (err: Error | null, value?: unknown) => void;
// The lock library's calls as plain synchronous ones (as its own lockSync does):
// a mkdir, a stat and an rmdir per claim cost less than a thread-pool round trip each.
const syncCall = (call: (...args: never[]) => unknown) => (...args: unknown[]): void => {
  const callback = args.pop() as Callback;
  let value: unknown;
  try {
    value = (call as (...a: unknown[]) => unknown)(...args);
  } catch (e) {
    return callback(e as Error);
  }
  callback(null, value);
};
const syncFs = { ...fs, mkdir: syncCall(fs.mkdirSync), stat: syncCall(fs.statSync), rmdir: syncCall(fs.rmdirSync), utimes: syncCall(fs.utimesSync), realpath: syncCall(fs.realpathSync) };

function lock(configDir: string, jobId: string, staleMs: number): Promise<() => Promise<void>> {
  return lockfile.lock(jobPath(configDir, 'pending', jobId), {
    fs: syncFs,
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
}

// Running one durable job under its claim: count the start, run the hook,
// keep its output in a log, then file the job as done, failed, or deferred
// ("not yet": back in pending/ with a later due_at). A run that was
// cancelled or killed from outside stays pending, so drain-outbox delivers it later.
// A `detach: true` hook is launched instead of run, by the worker and the
// drain alike: its job is filed once the launch is known (launchJob).

import { readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type Hook, DEFAULT_SETTINGS } from '../core/config.js';
import type { Warning } from '../core/diagnostics.js';
import { jobHistoryStatus } from '../core/outcome.js';
import { type DetachedStart, startDetached } from '../run/detached.js';
import type { HookContext } from '../core/hook-template.js';
import { resolveInvocation } from '../run/invocation.js';
import { LiveLog, liveLogPath } from '../run/live-log.js';
import { formatLog, logName, newRunId, writeLog } from '../run/logs.js';
import { groupAlive } from '../run/process-group.js';
import type { TempFiles } from '../run/runtime.js';
import { type RunRecord, runHook } from '../run/spawn.js';
import { type Json, stringifyJson } from '../core/json.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { withJobLock } from './claim.js';
import { type Job, parseJob } from './job.js';
import { type RetryPolicy, retryPolicy, retryRequest } from './retry.js';
import { jobPath, locksDir, moveJob, readJobText, writeAtomicAsync } from './store.js';

export type JobOutcome = 'done' | 'failed' | 'pending' | 'deferred' | 'claimed' | 'gone';

export interface JobRun {
  outcome: JobOutcome;
  job?: Job;
  /** The attached run's record, or a detached hook's launch failure. */
  record?: RunRecord;
  /** A detached hook that was started and is not waited for. */
  launched?: { pid: number };
  /** Where the run's stdout and stderr were kept, when the log could be written. */
  logPath?: string;
  /** Why a run that should have happened did not, or was not filed. */
  error?: string;
  warnings: Warning[];
}

export interface JobRunOptions {
  /** Checked after the run: a cancelled run stays pending. */
  cancelled?: () => boolean;
  onSpawn?: (pid: number) => void;
  /** Checked under the claim, before the start is counted: a reason to refuse the run (it goes to failed/). */
  refuse?: (job: Job) => string | undefined;
  retry?: RetryPolicy;
  /**
   * The starts the caller saw when it chose to run the job. Checked under the
   * claim: a job started by someone else since (a worker and a drain both
   * chose a fresh job) is theirs, and is not started again.
   */
  seen?: Pick<Job, 'retries' | 'last_started_at'>;
}

/** Whether the job is still as its claimant saw it when it chose to run it: no start since. */
export const unstartedSince = (job: Job, seen: Pick<Job, 'retries' | 'last_started_at'>): boolean =>
  job.retries === seen.retries && (job.last_started_at || null) === (seen.last_started_at || null);

export async function runDurableJob(configDir: string, jobId: string, hook: Hook, ctx: HookContext, temp: TempFiles, opts: JobRunOptions = {}): Promise<JobRun> {
  const claim = await withJobLock(configDir, jobId, async (): Promise<JobRun> => {
    let text: string | undefined;
    try {
      text = readJobText(configDir, 'pending', jobId);
    } catch (e) {
      return { outcome: 'pending', error: `${(e as Error).message}; not started`, warnings: [] };
    }
    if (text === undefined) return { outcome: 'gone', warnings: [] }; // another claimant finished it meanwhile
    const job = parseJob(text);
    // A claim taken over from a claimant that died (kill -9) while its hook runs on.
    if (previousRunAlive(configDir, jobId)) return { outcome: 'claimed', warnings: [] };
    if (opts.seen && !unstartedSince(job, opts.seen)) return { outcome: 'claimed', warnings: [] };
    const refusal = opts.refuse?.(job);
    if (refusal) {
      const filed: Job = { ...job, state: 'failed', error: refusal };
      await fileJob(configDir, jobId, filed, 'failed');
      return { outcome: 'failed', job: filed, warnings: [] };
    }
    job.retries += 1;
    job.state = 'running';
    job.last_started_at = new Date().toISOString();
    try {
      // fsync'd: the start count must survive a crash, or a job that crashes the machine would run forever.
      await writeAtomicAsync(jobPath(configDir, 'pending', jobId), stringifyJson(job as unknown as Json, 2) + '\n');
    } catch (e) {
      return { outcome: 'pending', job, error: `cannot update the job file (${errorCode(e)}); not started`, warnings: [] };
    }

    if (hook.execution.detach) return launchJob(configDir, jobId, job, await startDetached(hook, ctx, stringifyJson(job.payload), newRunId()));
    const live = new LiveLog(configDir, liveLogPath(configDir, jobId));
    const record = await runHook(hook, ctx, resolveInvocation(hook, ctx), stringifyJson(job.payload), temp, {
      onSpawn: (pid) => {
        noteGroup(configDir, jobId, pid);
        opts.onSpawn?.(pid);
      },
      onOutput: live.write,
      ...(opts.cancelled ? { cancelled: opts.cancelled } : {}),
    }).finally(() => live.close());
    forgetGroup(configDir, jobId);
    return settle(configDir, jobId, hook, job, record, opts);
  });
  return claim.claimed ? claim.value : { outcome: 'claimed', warnings: [] };
}

/** The history status of a job's delivery attempt, the same for the worker and the drain: `started` for a detached launch. */
export const jobRunHistoryStatus = (run: JobRun): string | undefined => (run.launched ? 'started' : jobHistoryStatus(run.outcome, run.record));

/**
 * Durable and detached: delivery is the launch (README). The job is done once
 * the process started, failed when it could not start, and nobody waits for
 * it. The drain launches it as the worker does: a hook meant to outlive its
 * starter (a watcher, a server) must not hold a drain open, and gets its own
 * session, its log and no timeout whoever starts it.
 */
async function launchJob(configDir: string, jobId: string, job: Job, start: DetachedStart): Promise<JobRun> {
  const logPath = start.logPath ? { logPath: start.logPath } : {};
  const filed: Job = 'pid' in start
    ? { ...job, state: 'done' }
    : { ...job, state: 'failed', last_finished_at: new Date().toISOString(), error: start.failure.error ?? 'launch_error' };
  const run = 'pid' in start ? { job: filed, launched: { pid: start.pid }, warnings: [], ...logPath } : { job: filed, record: start.failure, warnings: [], ...logPath };
  try {
    await fileJob(configDir, jobId, filed, filed.state === 'done' ? 'done' : 'failed');
  } catch (e) {
    return { ...run, outcome: 'pending', error: `${'pid' in start ? 'started' : 'could not start'}, but cannot file the job (${errorCode(e)}); it stays pending` };
  }
  return { ...run, outcome: filed.state === 'done' ? 'done' : 'failed' };
}

/** Files a job after its run: pending (cancelled, killed), deferred, done, or failed. */
async function settle(configDir: string, jobId: string, hook: Hook, job: Job, record: RunRecord, opts: JobRunOptions): Promise<JobRun> {
  const policy = opts.retry ?? retryPolicy(DEFAULT_SETTINGS);
  const retry = record.disposition === 'pending' ? undefined : retryRequest(record, hook.id, policy.delaySeconds);
  const warnings = retry?.warning ? [retry.warning] : [];
  const logPath = writeLog(configDir, logName(newRunId(), hook.id), formatLog(hook, record, warnings));
  job.last_finished_at = new Date().toISOString();
  job.exit_code = record.exitCode;
  job.stderr_tail = record.stderrTail || null;
  if (logPath) job.log_path = logPath;
  const file = async (outcome: JobOutcome, folder: 'pending' | 'done' | 'failed', filed: Job): Promise<JobRun> => {
    const run = { job: filed, record, warnings, ...(logPath ? { logPath } : {}) };
    try {
      await fileJob(configDir, jobId, filed, folder);
    } catch (e) {
      return { ...run, outcome: 'pending', error: `ran, but cannot file the job (${errorCode(e)}); it stays pending` };
    }
    return { ...run, outcome };
  };
  if (retry && job.retries < policy.maxRetries) {
    const dueAt = new Date(Date.now() + retry.delaySeconds * 1000).toISOString();
    return file('deferred', 'pending', { ...job, state: 'pending', error: 'deferred', deferred_reason: retry.reason, due_at: dueAt });
  }
  if (retry) return file('failed', 'failed', { ...job, state: 'failed', error: 'max_retries', deferred_reason: retry.reason });
  const error = record.disposition === 'done' ? null : (record.error ?? record.status);
  return file(record.disposition, record.disposition, { ...job, state: record.disposition, error });
}

const errorCode = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

// Next to the lock: the process group of the job's running hook, so a claimant
// that takes over a stale lock (its holder was killed with -9) can see it runs on.
// The PostgreSQL drain keeps the same note (a group can only be looked at on its machine).
const groupNote = (configDir: string, jobId: string): string => join(locksDir(configDir), `${jobId}.pgid`);

/** Notes the process group of the job's running hook (best effort). */
export function noteGroup(configDir: string, jobId: string, pgid: number): void {
  try {
    // No fsync: after a power cut the group it names is gone anyway.
    writeFileAtomic(groupNote(configDir, jobId), String(pgid), { durable: false });
  } catch {
    // without the note a takeover after a crash may start the job again: at least once still holds
  }
}

/** Forgets the note once the hook's run is over. */
export function forgetGroup(configDir: string, jobId: string): void {
  try {
    unlinkSync(groupNote(configDir, jobId)); // one call a job: rmSync would lstat first
  } catch {
    // not written (best effort), or gone already
  }
}

/** Whether the hook of an earlier start of the job (its starter killed) still runs here; forgets a dead group's note. */
export function previousRunAlive(configDir: string, jobId: string): boolean {
  let pgid: number;
  try {
    pgid = Number(readFileSync(groupNote(configDir, jobId), 'utf8'));
  } catch {
    return false;
  }
  if (Number.isInteger(pgid) && pgid > 0 && groupAlive(pgid)) return true;
  rmSync(groupNote(configDir, jobId), { force: true });
  return false;
}

/**
 * Rewrites the job file `fileId` in pending/, then moves it to its folder by
 * rename. A job bound for done/ is not fsync'd: it has been delivered, so a
 * power cut can cost its record, never a delivery.
 */
export async function fileJob(configDir: string, fileId: string, job: Job, folder: 'pending' | 'done' | 'failed'): Promise<void> {
  await writeAtomicAsync(jobPath(configDir, 'pending', fileId), stringifyJson(job as unknown as Json, 2) + '\n', folder !== 'done');
  if (folder !== 'pending') moveJob(configDir, fileId, 'pending', folder);
}

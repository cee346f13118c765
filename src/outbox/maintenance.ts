// Outbox upkeep outside a drain: requeue failed jobs, prune old done ones,
// and list the waiting ones (queued, deferred) for `list`.

import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type GlobalOptions, configDirOf } from '../config/locations.js';
import { parseJob, requeued, writeJob } from './job.js';
import type { FailedJob } from './summary.js';
import { isOddJobFile, listJobs, moveJob, outboxDir, readJobText } from './store.js';

// A FIFO, symlink or directory in failed/ (the drain moves one it finds in pending/ there): never read, named with why.
const NOT_A_REGULAR_FILE = 'not a regular file';

/** Moves failed jobs back to pending with a fresh start count, for after a hook is fixed. */
export function requeueFailed(opts: GlobalOptions): { job_id: string; requeued: boolean; error?: string }[] {
  const configDir = configDirOf(opts);
  return listJobs(configDir, 'failed').flatMap((jobId): { job_id: string; requeued: boolean; error?: string }[] => {
    const text = readJobText(configDir, 'failed', jobId);
    if (text === undefined) return isOddJobFile(configDir, 'failed', jobId) ? [{ job_id: jobId, requeued: false, error: `${NOT_A_REGULAR_FILE}; left in failed/` }] : [];
    try {
      const job = parseJob(text);
      writeJob(configDir, 'failed', requeued(job, new Date(), true), jobId);
      moveJob(configDir, jobId, 'failed', 'pending');
      return [{ job_id: jobId, requeued: true }];
    } catch (e) {
      return [{ job_id: jobId, requeued: false, error: (e as Error).message }];
    }
  });
}

/** Deletes done/ jobs older than `days` (by last_finished_at, else file time). */
export function pruneDone(opts: GlobalOptions, days: number): string[] {
  const configDir = configDirOf(opts);
  const cutoff = Date.now() - days * 86_400_000;
  const dir = outboxDir(configDir, 'done');
  const removed: string[] = [];
  for (const jobId of listJobs(configDir, 'done')) {
    const path = join(dir, `${jobId}.json`);
    let finishedAt = Number.NaN;
    try {
      finishedAt = Date.parse(parseJob(readJobText(configDir, 'done', jobId) ?? '').last_finished_at ?? '');
    } catch {
      // fall back to the file time
    }
    if (!Number.isFinite(finishedAt)) finishedAt = statSync(path).mtimeMs;
    if (finishedAt < cutoff) {
      rmSync(path, { force: true });
      removed.push(jobId);
    }
  }
  return removed;
}

/** The jobs in failed/, oldest first (a file that is not a job is named with why). */
export function failedJobs(configDir: string): FailedJob[] {
  return listJobs(configDir, 'failed').flatMap((jobId): FailedJob[] => {
    const text = readJobText(configDir, 'failed', jobId);
    if (text === undefined) return isOddJobFile(configDir, 'failed', jobId) ? [{ job_id: jobId, hook_id: '', error: `invalid_job: ${NOT_A_REGULAR_FILE}`, failed_at: null }] : [];
    try {
      const job = parseJob(text);
      return [{ job_id: jobId, hook_id: job.hook_id, error: typeof job.error === 'string' ? job.error : null, failed_at: typeof job.last_finished_at === 'string' ? job.last_finished_at : null }];
    } catch (e) {
      return [{ job_id: jobId, hook_id: '', error: `invalid_job: ${(e as Error).message}`, failed_at: null }];
    }
  });
}

export interface DeferredJob {
  job_id: string;
  hook_id: string;
  due_at: string;
  retries: number;
  reason: string | null;
}

/**
 * The pending jobs waiting for a due time, for `list`: deferred ones (the hook
 * said "not yet") and queued ones (a delay_seconds follow-up, not started yet).
 */
export function waitingJobs(configDir: string): { queued: DeferredJob[]; deferred: DeferredJob[] } {
  const out = { queued: [] as DeferredJob[], deferred: [] as DeferredJob[] };
  for (const fileId of pendingForList(configDir)) {
    try {
      const job = parseJob(readJobText(configDir, 'pending', fileId) ?? '');
      if (typeof job.due_at !== 'string') continue;
      const entry = { job_id: job.job_id, hook_id: job.hook_id, due_at: job.due_at, retries: job.retries };
      if (job.error === 'deferred') out.deferred.push({ ...entry, reason: typeof job.deferred_reason === 'string' ? job.deferred_reason : null });
      else out.queued.push({ ...entry, reason: null });
    } catch {
      // not a job: the drain moves it to failed/
    }
  }
  return out;
}

/** pending/ for `list`: a config dir that is not a directory has no outbox (config_dir_not_found says so); any other unreadable outbox is an error. */
function pendingForList(configDir: string): string[] {
  try {
    return listJobs(configDir, 'pending');
  } catch (e) {
    if (!isDirectory(configDir)) return [];
    throw e;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

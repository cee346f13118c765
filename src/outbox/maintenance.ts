// Outbox upkeep outside a drain: requeue failed jobs, prune old done ones,
// and list the deferred ones for `list`.

import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type GlobalOptions, configDirOf } from '../config/locations.js';
import { parseJob, writeJob } from './job.js';
import { listJobs, moveJob, outboxDir, readJobText } from './store.js';

/** Moves failed jobs back to pending with a fresh start count, for after a hook is fixed. */
export function requeueFailed(opts: GlobalOptions): { job_id: string; requeued: boolean; error?: string }[] {
  const configDir = configDirOf(opts);
  return listJobs(configDir, 'failed').map((jobId) => {
    const text = readJobText(configDir, 'failed', jobId);
    try {
      const job = parseJob(text ?? '');
      writeJob(configDir, 'failed', { ...job, state: 'pending', retries: 0, error: null, requeued_at: new Date().toISOString() }, jobId);
      moveJob(configDir, jobId, 'failed', 'pending');
      return { job_id: jobId, requeued: true };
    } catch (e) {
      return { job_id: jobId, requeued: false, error: (e as Error).message };
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

export interface DeferredJob {
  job_id: string;
  hook_id: string;
  due_at: string;
  retries: number;
  reason: string | null;
}

/** Pending jobs a hook said "not yet" to, with when they are due again (for `list`). */
export function deferredJobs(configDir: string): DeferredJob[] {
  return pendingForList(configDir).flatMap((fileId) => {
    try {
      const job = parseJob(readJobText(configDir, 'pending', fileId) ?? '');
      if (job.error !== 'deferred' || typeof job.due_at !== 'string') return [];
      return [{ job_id: job.job_id, hook_id: job.hook_id, due_at: job.due_at, retries: job.retries, reason: typeof job.deferred_reason === 'string' ? job.deferred_reason : null }];
    } catch {
      return [];
    }
  });
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

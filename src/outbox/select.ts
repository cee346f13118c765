// Which pending jobs a drain pass runs, and what it says about the rest: a
// pure function of the jobs, their hooks' lookups, the settings and the time,
// so every rule (due, young, max retries, stale, ambiguous, untrusted, limit,
// dry run) is tested on plain data.

import type { Hook } from '../core/config.js';
import type { Warning } from '../core/diagnostics.js';
import type { Job } from './job.js';

/** Why a job that has used up its starts fails: the same words from every drain and dry run. */
export const spentMessage = (starts: number, maxRetries: number): string => `started ${starts} times (outbox_max_retries ${maxRetries})`;

export type Lookup = { hook: Hook } | { error: 'stale_source' | 'ambiguous_hook' | 'untrusted'; message: string };

/** A file in pending/: its parsed job, or why it is not one. */
export type Candidate = { fileId: string; job: Job } | { fileId: string; invalid: string };

export type FailOutcome = 'invalid_job' | 'max_retries' | 'stale_source' | 'ambiguous_hook';
export type SkipOutcome = 'not_due' | 'deferred' | 'young' | 'untrusted' | 'limit';

export type Verdict =
  | { action: 'run'; fileId: string; job: Job; hook: Hook }
  /** Goes to failed/ without running (in a dry run: would). */
  | { action: 'fail'; fileId: string; job?: Job; outcome: FailOutcome; message: string }
  | { action: 'skip'; fileId: string; job: Job; outcome: SkipOutcome; dueAt?: string };

export interface SelectOptions {
  now: number;
  retryAgeSeconds: number;
  maxRetries: number;
  limit?: number;
}

export interface Selection {
  verdicts: Verdict[];
  warnings: Warning[];
  /** The earliest time (ms) a skipped job becomes due or old enough: when a watcher should look again. */
  wakeAt?: number;
}

export function selectJobs(candidates: readonly Candidate[], lookup: (job: Job) => Lookup, opts: SelectOptions): Selection {
  const verdicts: Verdict[] = [];
  const warnings: Warning[] = [];
  let wakeAt: number | undefined;
  const wake = (at: number): void => {
    wakeAt = wakeAt === undefined ? at : Math.min(wakeAt, at);
  };
  let runs = 0;
  for (const c of candidates) {
    if ('invalid' in c) {
      verdicts.push({ action: 'fail', fileId: c.fileId, outcome: 'invalid_job', message: c.invalid });
      continue;
    }
    const { fileId, job } = c;
    const due = dueTime(job, fileId, warnings);
    // Stryker disable next-line ConditionalExpression: `undefined > now` is false, so the undefined check only narrows the type
    if (due !== undefined && due > opts.now) {
      verdicts.push({ action: 'skip', fileId, job, outcome: job.error === 'deferred' ? 'deferred' : 'not_due', dueAt: job.due_at! });
      wake(due);
      continue;
    }
    // A deferred job's last run was finished and filed: only its due_at holds it back.
    const oldAt = job.error === 'deferred' ? opts.now : oldEnoughAt(job, opts);
    if (oldAt > opts.now) {
      verdicts.push({ action: 'skip', fileId, job, outcome: 'young', dueAt: new Date(oldAt).toISOString() });
      wake(oldAt);
      continue;
    }
    if (job.retries >= opts.maxRetries) {
      verdicts.push({ action: 'fail', fileId, job, outcome: 'max_retries', message: spentMessage(job.retries, opts.maxRetries) });
      continue;
    }
    const found = lookup(job);
    if ('error' in found) {
      if (found.error === 'untrusted') verdicts.push({ action: 'skip', fileId, job, outcome: 'untrusted' });
      else verdicts.push({ action: 'fail', fileId, job, outcome: found.error, message: found.message });
      continue;
    }
    // Stryker disable next-line ConditionalExpression: `runs >= undefined` is false, so the undefined check only narrows the type
    if (opts.limit !== undefined && runs >= opts.limit) {
      verdicts.push({ action: 'skip', fileId, job, outcome: 'limit' });
      continue;
    }
    runs++;
    verdicts.push({ action: 'run', fileId, job, hook: found.hook });
  }
  return { verdicts, warnings, ...(wakeAt !== undefined ? { wakeAt } : {}) };
}

/** due_at in ms; a due_at that is not a date counts as due (with a warning), so a corrupt stamp cannot strand a job. */
function dueTime(job: Job, fileId: string, warnings: Warning[]): number | undefined {
  if (job.due_at === undefined || job.due_at === null || job.due_at === '') return undefined;
  const due = typeof job.due_at === 'string' ? Date.parse(job.due_at) : Number.NaN;
  if (Number.isFinite(due)) return due;
  warnings.push({ code: 'due_at_invalid', message: `job ${fileId}: due_at ${JSON.stringify(job.due_at)} is not a date; treated as due` });
  return undefined;
}

/**
 * When the job's last start is outbox_retry_age_seconds old. The age guards a
 * start that may still be running (its claimant's lock gone stale); a job that
 * never started, or was requeued since its last start, has no such run, so
 * only its due_at holds it (see docs/outbox.md for why creation no longer
 * counts). Chrys writes "" for "never started". A start in the future means
 * the clock went back: it cannot hold the job back (its claim still keeps it
 * to one start at a time).
 */
export function oldEnoughAt(job: Job, opts: Pick<SelectOptions, 'now' | 'retryAgeSeconds'>): number {
  const since = lastStart(job);
  if (since === undefined || since > opts.now) return opts.now;
  return since + opts.retryAgeSeconds * 1000;
}

/** The job's last start in ms, or undefined when it has not started since it was written or requeued. */
function lastStart(job: Job): number | undefined {
  const started = job.last_started_at || (job.retries > 0 ? job.created_at : '');
  const since = Date.parse(started);
  if (!Number.isFinite(since)) return undefined;
  const requeued = typeof job.requeued_at === 'string' ? Date.parse(job.requeued_at) : Number.NaN;
  return Number.isFinite(requeued) && requeued >= since ? undefined : since;
}

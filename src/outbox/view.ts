// What `outbox list` and `outbox show` say about a job: its state, when it is
// due, and its history. Pure: a job, its folder, the retry age and the time.

import { stringField } from '../core/envelope.js';
import type { Job } from './job.js';
import { oldEnoughAt } from './select.js';
import type { Folder } from './store.js';

export type JobState = 'pending' | 'deferred' | 'failed' | 'done';
export const JOB_STATES: readonly JobState[] = ['pending', 'deferred', 'failed', 'done'];

/** A job where a backend keeps it: its id (the file's name for the file outbox) and its folder. */
export interface OutboxEntry {
  id: string;
  folder: Folder;
  job: Job;
  /** With the PostgreSQL outbox: a pending job of this machine's file outbox, which the next drain moves into the database. */
  fallenBack?: boolean;
}

/** A pending job a hook said "not yet" to is deferred; the rest of pending/ is pending. */
export const stateOf = (e: OutboxEntry): JobState => (e.folder === 'pending' && e.job.error === 'deferred' ? 'deferred' : e.folder);

/** When a pending job may next start (ms): its due_at, else the retry age after a start; undefined once it left pending. */
export function dueAt(e: OutboxEntry, retryAgeSeconds: number, now: number): number | undefined {
  if (e.folder !== 'pending') return undefined;
  const due = typeof e.job.due_at === 'string' && e.job.due_at ? Date.parse(e.job.due_at) : Number.NaN;
  const aged = e.job.error === 'deferred' ? now : oldEnoughAt(e.job, { now, retryAgeSeconds });
  return Math.max(Number.isFinite(due) ? due : now, aged);
}

/** "in 9m 58s", "3s ago", "now": a time relative to `now`, to the second. */
export function relative(at: number, now: number): string {
  const s = Math.round((at - now) / 1000);
  if (s === 0) return 'now';
  const a = Math.abs(s);
  const parts = a >= 86_400 ? [[a / 86_400, 'd'], [(a % 86_400) / 3600, 'h']] : a >= 3600 ? [[a / 3600, 'h'], [(a % 3600) / 60, 'm']] : a >= 60 ? [[a / 60, 'm'], [a % 60, 's']] : [[a, 's']];
  const text = parts.map(([n, unit]) => `${Math.floor(n as number)}${unit}`).filter((p, i) => i === 0 || !p.startsWith('0')).join(' ');
  return s > 0 ? `in ${text}` : `${text} ago`;
}

/** One job as `outbox list --json` shows it. */
export interface JobRow {
  job_id: string;
  hook_id: string;
  event: string;
  session_id: string;
  state: JobState;
  /** When a pending or deferred job may next start (ISO), null once it left pending. */
  due_at: string | null;
  /** Seconds until then (negative: overdue), null once it left pending. */
  due_in_seconds: number | null;
  attempts: number;
  last_error: string | null;
  log_path: string | null;
  /** The job waits in this machine's file outbox for the next drain to move it into PostgreSQL (outbox_fallback, a migrate). */
  fallen_back: boolean;
}

export function jobRow(e: OutboxEntry, retryAgeSeconds: number, now: number): JobRow {
  const due = dueAt(e, retryAgeSeconds, now);
  const { job } = e;
  return {
    job_id: e.id,
    hook_id: job.hook_id,
    event: typeof job.event === 'string' ? job.event : '',
    session_id: stringField(job.payload, 'session_id'),
    state: stateOf(e),
    due_at: due === undefined ? null : new Date(due).toISOString(),
    due_in_seconds: due === undefined ? null : Math.round((due - now) / 1000),
    attempts: job.retries,
    last_error: typeof job.error === 'string' ? job.error : null,
    log_path: typeof job.log_path === 'string' ? job.log_path : null,
    fallen_back: e.fallenBack === true,
  };
}

/** The job's life so far, oldest first, from its own time stamps. */
export function historyLines(job: Job): { at: string; what: string }[] {
  const str = (k: string): string | undefined => (typeof job[k] === 'string' && job[k] ? (job[k] as string) : undefined);
  const out: { at: string; what: string }[] = [];
  const add = (at: string | undefined, what: string): void => {
    if (at) out.push({ at, what });
  };
  add(str('created_at'), `created by ${job.event} for hook ${job.hook_id}${str('due_at') && !str('last_started_at') ? `, due ${str('due_at')}` : ''}`);
  add(str('requeued_at'), 'requeued');
  add(str('last_started_at'), `started (start ${job.retries})`);
  const end = job.error === 'deferred' ? `deferred: ${str('deferred_reason') ?? 'not yet'}; due again ${str('due_at') ?? '-'}` : `finished ${job.state}${job.exit_code !== null ? `, exit ${job.exit_code}` : ''}${job.error ? ` (${job.error})` : ''}`;
  add(str('last_finished_at'), end);
  return out.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

// The PostgreSQL outbox's tables: pending jobs are graphile-worker jobs (its
// SKIP LOCKED claims, run_at, job keys, LISTEN/NOTIFY), one task identifier
// per machine plus one for portable jobs; the payload is the Chrys job itself,
// field names and unknown fields kept. graphile-worker deletes a job once it
// completes, so what a run ended in (done, failed) is kept in
// chrys_outbox.finished, as the file outbox keeps done/ and failed/.

import type { Client, PoolClient } from 'pg';
import type { Hook } from '../../core/config.js';
import { stringField } from '../../core/envelope.js';
import { ChrysError } from '../../core/errors.js';
import { type Json, stringifyJson } from '../../core/json.js';
import { type Job, InvalidJob, parseJob } from '../job.js';
import type { OutboxEntry } from '../view.js';
import { loadGraphile } from './connect.js';
import { LIVE_OUTPUT_DDL } from './live-output.js';

type Sql = Client | PoolClient;

export const PORTABLE_TASK = 'chrys:portable';
/**
 * NOTIFYed when pending jobs leave the queue (filed, dropped): graphile-worker
 * NOTIFYs only its inserts, and a follower (`outbox logs --follow`) waits for
 * its job to leave.
 */
export const LEFT_CHANNEL = 'chrys_outbox:left';
export const hostTask = (hostId: string): string => `chrys:host:${hostId}`;
/** The tasks a drainer on `hostId` takes: its own host's jobs and the portable ones. */
export const tasksOfHost = (hostId: string): string[] => [hostTask(hostId), PORTABLE_TASK];
export const taskOf = (job: Job, hostId: string): string => (job.portable === true ? PORTABLE_TASK : hostTask(typeof job.origin_host === 'string' ? job.origin_host : hostId));

/** A backstop only: the drain files a job as max_retries itself (outbox_max_retries); this stops a job whose filing keeps failing. */
export const MAX_ATTEMPTS = 100;

const CHRYS_DDL = `
CREATE SCHEMA IF NOT EXISTS chrys_outbox;
CREATE TABLE IF NOT EXISTS chrys_outbox.finished (
  job_id text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('done', 'failed')),
  job json NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS chrys_outbox.drainers (
  worker_id text PRIMARY KEY,
  host_id text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now()
);
${LIVE_OUTPUT_DDL}`;

/** graphile-worker's schema (its own migrations) and ours; safe to run from many processes at once. */
export async function ensureSchema(client: Sql, url: string): Promise<void> {
  const { runMigrations } = await loadGraphile();
  await runMigrations({ connectionString: url, logger: await quietLogger() });
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('chrys_outbox.schema'))");
    await client.query(CHRYS_DDL);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}

/** graphile-worker logs to the console by default; the drain reports on its own, and is told of the errors graphile-worker only logs. */
export async function quietLogger(onError?: (e: unknown) => void): Promise<import('graphile-worker').Logger> {
  const { Logger } = await loadGraphile();
  return new Logger(() => (level, _message, meta) => {
    if (level === 'error' && meta?.error !== undefined) onError?.(meta.error);
  });
}

/** Whether an error is "the schema is not there yet" (a database no drain has migrated). */
export const isMissingSchema = (e: unknown): boolean => ['3F000', '42883', '42P01'].includes((e as { code?: string }).code ?? '');

/** A look at the outbox (no DDL), or `empty()` on a database no drain has migrated. */
export const unlessNoSchema = <T>(look: Promise<T>, empty: () => NoInfer<T>): Promise<T> => look.catch((e: unknown) => (isMissingSchema(e) ? empty() : Promise.reject(e)));

/** The key that keeps a job unique: a once-per-session hook's one job per session, else the job id. */
export function jobKey(job: Job, hook?: Hook): string {
  const session = stringField(job.payload, 'session_id');
  if (hook?.execution.once_per_session && session) return `once:${hook.source}:${hook.id}:${session}`;
  return typeof job.job_key === 'string' ? job.job_key : job.job_id;
}

export interface Queued {
  job: Job;
  key: string;
  /** When it may start; now when unset. */
  runAt?: string;
  /** `unsafe_dedupe` leaves an existing job with the key as it is (once per session, a migration); `replace` makes a new one when it runs. */
  mode: 'replace' | 'unsafe_dedupe';
}

/** Adds jobs in one transaction: all are in the database when it returns, or none. */
export async function addJobs(client: Sql, jobs: readonly Queued[], hostId: string): Promise<void> {
  await client.query('BEGIN');
  try {
    for (const q of jobs) await addJob(client, q, hostId);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}

export async function addJob(client: Sql, q: Queued, hostId: string): Promise<void> {
  const job: Job = { ...q.job, job_key: q.key };
  await client.query('SELECT graphile_worker.add_job($1::text, $2::json, run_at => $3::timestamptz, max_attempts => $4::int, job_key => $5::text, job_key_mode => $6::text)', [
    taskOf(job, hostId),
    stringifyJson(job as unknown as Json),
    q.runAt ?? job.due_at ?? null,
    MAX_ATTEMPTS,
    q.key,
    q.mode,
  ]);
}

/** A pending row as the outbox commands see it. */
export interface PendingRow {
  id: string;
  payload_text: string;
  run_at: Date;
  attempts: number;
  locked_at: Date | null;
  locked_by: string | null;
  last_error: string | null;
  key: string | null;
}

// The payload as text: json keeps a number's spelling, and a row that is not a Chrys job is reported, not dropped.
export const PENDING_SELECT = `SELECT j.id::text AS id, p.payload::text AS payload_text, j.run_at, j.attempts, j.locked_at, j.locked_by, j.last_error, j.key
  FROM graphile_worker.jobs j JOIN graphile_worker._private_jobs p ON p.id = j.id
  WHERE j.task_identifier LIKE 'chrys:%'`;

/**
 * The Chrys job of a pending row: its starts are those recorded in the payload
 * (by earlier rows of the job: a deferral adds a new row) plus the claims of
 * this row; its due time is the row's run_at.
 */
export function pendingEntry(row: PendingRow): OutboxEntry {
  const job = parseJob(row.payload_text);
  const starts = job.retries + row.attempts;
  const due = row.run_at.toISOString();
  return {
    id: job.job_id,
    folder: 'pending',
    job: { ...job, retries: starts, state: row.locked_at ? 'running' : 'pending', ...(row.run_at.getTime() > Date.now() || job.due_at ? { due_at: due } : {}), pg_job_id: row.id },
  };
}

/** pendingEntry, or undefined for a row whose payload is not a Chrys job. */
export function tryPendingEntry(row: PendingRow): OutboxEntry | undefined {
  try {
    return pendingEntry(row);
  // Stryker disable next-line BlockStatement: parseJob throws nothing but InvalidJob
  } catch (e) {
    if (e instanceof InvalidJob) return undefined;
    throw e;
  }
}

/**
 * Says so when this role cannot see some pending jobs, rather than show an
 * outbox without them: graphile-worker keeps row-level security on
 * _private_jobs, so a role given SELECT but no policy reads no payloads, and
 * the outbox would look empty. One statement, one snapshot.
 */
export async function refuseHiddenPending(client: Sql): Promise<void> {
  const r = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM graphile_worker.jobs j LEFT JOIN graphile_worker._private_jobs p ON p.id = j.id
    WHERE j.task_identifier LIKE 'chrys:%' AND p.id IS NULL`);
  // Stryker disable next-line OptionalChaining: count(*) always returns one row
  const n = r.rows[0]?.n ?? 0;
  if (n === 0) return;
  throw new ChrysError('outbox_unreadable', `this database role cannot read ${n} pending job${n === 1 ? '' : 's'} of the PostgreSQL outbox (row-level security on graphile_worker._private_jobs)`, 'give the role a SELECT policy on that table (docs/outbox-postgres.md, "Roles"), or use the role that made the outbox');
}

/** Every pending row, or outbox_unreadable when this role cannot see some of them. */
export async function listPending(client: Sql): Promise<PendingRow[]> {
  await refuseHiddenPending(client);
  return (await client.query<PendingRow>(`${PENDING_SELECT} ORDER BY j.id`)).rows;
}

/** A run that ended (done or failed), and the graphile-worker row it came from. */
export interface FinishedRun {
  job: Job;
  state: 'done' | 'failed';
  rowId: string;
}

/**
 * Files finished runs and deletes their rows in one statement: a job leaves
 * the queue exactly when its record is in chrys_outbox.finished, so a drainer
 * killed after filing never has the job run again (graphile-worker's own
 * completion that follows finds the row gone). A second filing of the same job
 * (a run again after a lost filing) replaces the first.
 */
export async function fileFinished(client: Sql, runs: readonly FinishedRun[]): Promise<void> {
  // One record per job: ON CONFLICT cannot touch a row twice in one statement.
  const last = [...new Map(runs.map((r) => [r.job.job_id, r])).values()];
  // Text arrays, not one JSON document: PostgreSQL's JSON functions refuse a payload's \u0000, the json type keeps it.
  await client.query(
    `WITH filed AS (
       INSERT INTO chrys_outbox.finished (job_id, state, job)
       SELECT f.job_id, f.state, f.job::json FROM unnest($1::text[], $2::text[], $3::text[]) AS f(job_id, state, job)
       ON CONFLICT (job_id) DO UPDATE SET state = EXCLUDED.state, job = EXCLUDED.job, finished_at = now()
     ), gone AS (
       DELETE FROM graphile_worker._private_jobs WHERE id = ANY($4::bigint[])
     )
     SELECT pg_notify($5, '')`,
    [last.map((r) => r.job.job_id), last.map((r) => r.state), last.map((r) => stringifyJson({ ...r.job, state: r.state } as unknown as Json)), runs.map((r) => r.rowId), LEFT_CHANNEL],
  );
}

export async function listFinished(client: Sql, only?: { state: 'done' | 'failed' } | { jobId: string }): Promise<OutboxEntry[]> {
  const where = !only ? '' : 'state' in only ? 'WHERE state = $1' : 'WHERE job_id = $1';
  const params = !only ? [] : ['state' in only ? only.state : only.jobId];
  const rows = (await client.query<{ job_id: string; state: 'done' | 'failed'; job: string }>(`SELECT job_id, state, job::text AS job FROM chrys_outbox.finished ${where} ORDER BY job_id`, params)).rows;
  return rows.flatMap((r) => {
    try {
      return [{ id: r.job_id, folder: r.state, job: parseJob(r.job) }];
    } catch {
      return [];
    }
  });
}

/** Deletes the done jobs filed more than `days` ago; their ids, oldest first. */
export async function pruneFinished(client: Sql, days: number): Promise<string[]> {
  const gone = await client.query<{ job_id: string }>("DELETE FROM chrys_outbox.finished WHERE state = 'done' AND finished_at < now() - $1 * interval '1 day' RETURNING job_id", [days]);
  return gone.rows.map((r) => r.job_id).sort();
}

/**
 * Deletes the pending job with this key unless a drainer holds it; whether it
 * did. Not graphile-worker's remove_job: that one marks a locked job as spent,
 * which a run that then dies would never get back.
 */
export async function removeUnlocked(client: Sql, key: string): Promise<boolean> {
  const r = await client.query('WITH gone AS (DELETE FROM graphile_worker._private_jobs WHERE key = $1 AND locked_at IS NULL RETURNING 1) SELECT pg_notify($2, \'\') FROM gone', [key, LEFT_CHANNEL]);
  return (r.rowCount ?? 0) > 0;
}

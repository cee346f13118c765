// The operations `chrys-hooks outbox` needs of an outbox, whatever keeps it:
// the file outbox today (file-backend.ts), a database one later. Every
// operation that changes a pending job does so under the claim the drain
// takes, so a running job is never requeued or dropped mid-run.

import { ChrysError } from '../core/errors.js';
import { printable } from '../core/printable.js';
import type { LiveSource } from '../run/live-log.js';
import type { JobState, OutboxEntry } from './view.js';

export type ChangeOutcome =
  /** Done: requeued (due at once) or dropped. */
  | 'requeued'
  | 'dropped'
  /** A drain or worker holds the job's claim (it is running): left as it is. */
  | 'running';

export interface Change {
  job_id: string;
  outcome: ChangeOutcome;
  /** Where the job was. */
  from: JobState;
}

export interface OutboxBackend {
  /** Jobs in one state, or all, oldest first. */
  list(state?: JobState): Promise<OutboxEntry[]>;
  /** One job; throws unknownJob when there is none by that id. */
  show(jobId: string): Promise<OutboxEntry>;
  /** Makes a pending or failed job due at once (a failed one with a fresh start count). */
  retry(jobId: string): Promise<Change>;
  /** retry() of every failed job. */
  retryFailed(): Promise<Change[]>;
  /** Removes a pending or failed job for good. */
  drop(jobId: string): Promise<Change>;
  /** Calls `onChange` whenever pending jobs may have changed (a file event; a NOTIFY for a database), until closed. */
  watch(onChange: () => void): { close(): void };
  /** The output of the job's runs as they print it, from now on; not that of the run whose log is `shownLog` (already printed). */
  liveOutput(jobId: string, shownLog: string | undefined): LiveSource;
}

export const unknownJob = (jobId: string): ChrysError =>
  new ChrysError('unknown_job', `no job "${printable(jobId)}" in the outbox`, 'run `chrys-hooks outbox list` for the job ids');

export const doneJob = (jobId: string, what: string): ChrysError =>
  new ChrysError('refused', `job "${printable(jobId)}" is done; it cannot be ${what}`, 'only pending, deferred and failed jobs can be');

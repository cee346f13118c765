// What a drain reports: one entry per job it considered, and counts that
// always add up to the jobs listed (CONTRACT §8's `drain-outbox --json`).

import type { Warning } from '../core/diagnostics.js';
import type { FailOutcome, SkipOutcome } from './select.js';

export type DrainOutcome = 'done' | 'failed' | 'pending' | 'deferred' | 'would_run' | 'claimed' | SkipOutcome | FailOutcome;

export interface JobReport {
  job_id: string;
  hook_id: string;
  outcome: DrainOutcome;
  error?: string;
  /** When a deferred or not-yet-due job is due. */
  due_at?: string;
  /** The log of this run (stdout and stderr). */
  log_path?: string;
  /** The last 1 KiB of a failed run's stderr. */
  stderr_tail?: string;
  /** For an untrusted job: the command that would let it run. */
  command?: string;
}

type Skipped = { young: number; not_due: number; claimed: number; untrusted: number; limit: number };

export interface DrainSummary {
  considered: number;
  /** Jobs whose hook was started by this drain. */
  ran: number;
  done: number;
  failed: number;
  /** Jobs that said "not yet" now, or did earlier and are not due again yet. */
  deferred: number;
  /** Runs stopped (killed, or the watcher shutting down): the job stays pending. */
  pending: number;
  would_run: number;
  would_fail: number;
  skipped: Skipped;
  jobs: JobReport[];
  warnings: Warning[];
  /** Every job in failed/ once the drain is over, this drain's failures and earlier ones (fire's worker files its own there). */
  failed_jobs: FailedJob[];
}

export interface FailedJob {
  job_id: string;
  hook_id: string;
  error: string | null;
  failed_at: string | null;
}

const FAILED: ReadonlySet<DrainOutcome> = new Set(['failed', 'invalid_job', 'max_retries', 'stale_source', 'ambiguous_hook']);

export class Tally {
  readonly summary: DrainSummary = {
    considered: 0, ran: 0, done: 0, failed: 0, deferred: 0, pending: 0, would_run: 0, would_fail: 0,
    skipped: { young: 0, not_due: 0, claimed: 0, untrusted: 0, limit: 0 }, jobs: [], warnings: [], failed_jobs: [],
  };
  constructor(
    private readonly keepJobs: boolean,
    private readonly onJob?: (report: JobReport, ran: boolean) => void,
    private readonly onWarning?: (warning: Warning) => void,
  ) {}

  /** Counts one job; `wouldFail` for a dry run's failure, `ran` when its hook was started. */
  report(job: JobReport, wouldFail = false, ran = false): void {
    const s = this.summary;
    s.considered++;
    if (ran) s.ran++;
    if (wouldFail) s.would_fail++;
    else if (FAILED.has(job.outcome)) s.failed++;
    else if (job.outcome === 'done' || job.outcome === 'deferred' || job.outcome === 'pending' || job.outcome === 'would_run') s[job.outcome]++;
    else s.skipped[job.outcome as keyof Skipped]++;
    if (this.keepJobs) s.jobs.push(job);
    this.onJob?.(job, ran);
  }

  warn(...warnings: Warning[]): void {
    for (const w of warnings) {
      if (this.keepJobs) this.summary.warnings.push(w);
      this.onWarning?.(w);
    }
  }
}

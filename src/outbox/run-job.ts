// Running one durable job under its claim: count the start, run the hook,
// then file the job as done or failed. A run that was cancelled or killed
// from outside stays pending, so drain-outbox delivers it later.

import type { Hook } from '../core/config.js';
import type { HookContext } from '../run/invocation.js';
import { resolveInvocation } from '../run/invocation.js';
import type { TempFiles } from '../run/runtime.js';
import { type RunRecord, runHook } from '../run/spawn.js';
import { stringifyJson } from '../core/json.js';
import { withJobLock } from './claim.js';
import { type Job, parseJob, writeJob } from './job.js';
import { moveJob, readJobText } from './store.js';

export type JobOutcome = 'done' | 'failed' | 'pending' | 'claimed' | 'gone';

export interface JobRun {
  outcome: JobOutcome;
  job?: Job;
  record?: RunRecord;
}

export interface JobRunOptions {
  /** Checked after the run: a cancelled run stays pending. */
  cancelled?: () => boolean;
  onSpawn?: (pid: number) => void;
  /** Checked under the claim, before the start is counted: a reason to refuse the run (it goes to failed/). */
  refuse?: (job: Job) => string | undefined;
}

export async function runDurableJob(configDir: string, jobId: string, hook: Hook, ctx: HookContext, temp: TempFiles, opts: JobRunOptions = {}): Promise<JobRun> {
  const claim = await withJobLock(configDir, jobId, async (): Promise<JobRun> => {
    const text = readJobText(configDir, 'pending', jobId);
    if (text === undefined) return { outcome: 'gone' }; // another claimant finished it meanwhile
    const job = parseJob(text);
    const refusal = opts.refuse?.(job);
    if (refusal) {
      fileJob(configDir, jobId, { ...job, state: 'failed', error: refusal }, 'failed');
      return { outcome: 'failed', job };
    }
    job.retries += 1;
    job.state = 'running';
    job.last_started_at = new Date().toISOString();
    writeJob(configDir, 'pending', job, jobId);

    const record = await runHook(hook, ctx, resolveInvocation(hook, ctx), stringifyJson(job.payload), temp, {
      ...(hook.execution.detach ? {} : { timeoutMs: hook.execution.timeout_seconds * 1000 }),
      ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
    });
    job.last_finished_at = new Date().toISOString();
    job.exit_code = record.exitCode;
    job.stderr_tail = record.stderrTail || null;
    const killedFromOutside = record.status === 'failed' && record.signal !== null;
    if (opts.cancelled?.() || killedFromOutside) {
      fileJob(configDir, jobId, { ...job, state: 'pending', error: opts.cancelled?.() ? 'cancelled' : (record.error ?? 'killed') }, 'pending');
      return { outcome: 'pending', job, record };
    }
    if (record.status === 'ok') {
      fileJob(configDir, jobId, { ...job, state: 'done', error: null }, 'done');
      return { outcome: 'done', job, record };
    }
    fileJob(configDir, jobId, { ...job, state: 'failed', error: record.error ?? record.status }, 'failed');
    return { outcome: 'failed', job, record };
  });
  return claim.claimed ? claim.value : { outcome: 'claimed' };
}

/** Rewrites the job file `fileId` in pending/, then moves it to its folder by rename. */
export function fileJob(configDir: string, fileId: string, job: Job, folder: 'pending' | 'done' | 'failed'): void {
  writeJob(configDir, 'pending', job, fileId);
  if (folder !== 'pending') moveJob(configDir, fileId, 'pending', folder);
}

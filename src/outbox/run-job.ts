// Running one durable job under its claim: count the start, run the hook,
// then file the job as done or failed. A run that was cancelled or killed
// from outside stays pending, so drain-outbox delivers it later.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hook } from '../core/config.js';
import type { HookContext } from '../run/invocation.js';
import { resolveInvocation } from '../run/invocation.js';
import type { TempFiles } from '../run/runtime.js';
import { type RunRecord, runHook } from '../run/spawn.js';
import { stringifyJson } from '../core/json.js';
import { withJobLock } from './claim.js';
import { type Job, parseJob, writeJob } from './job.js';
import { locksDir, moveJob, readJobText } from './store.js';

export type JobOutcome = 'done' | 'failed' | 'pending' | 'claimed' | 'gone';

export interface JobRun {
  outcome: JobOutcome;
  job?: Job;
  record?: RunRecord;
  /** Why a run that should have happened did not, or was not filed. */
  error?: string;
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
    // A claim taken over from a claimant that died (kill -9) while its hook runs on.
    if (previousRunAlive(configDir, jobId)) return { outcome: 'claimed' };
    const refusal = opts.refuse?.(job);
    if (refusal) {
      fileJob(configDir, jobId, { ...job, state: 'failed', error: refusal }, 'failed');
      return { outcome: 'failed', job };
    }
    job.retries += 1;
    job.state = 'running';
    job.last_started_at = new Date().toISOString();
    try {
      writeJob(configDir, 'pending', job, jobId);
    } catch (e) {
      return { outcome: 'pending', job, error: `cannot update the job file (${errorCode(e)}); not started` };
    }

    const record = await runHook(hook, ctx, resolveInvocation(hook, ctx), stringifyJson(job.payload), temp, {
      ...(hook.execution.detach ? {} : { timeoutMs: hook.execution.timeout_seconds * 1000 }),
      onSpawn: (pid) => {
        noteGroup(configDir, jobId, pid);
        opts.onSpawn?.(pid);
      },
      ...(opts.cancelled ? { cancelled: opts.cancelled } : {}),
    });
    rmSync(groupNote(configDir, jobId), { force: true });
    job.last_finished_at = new Date().toISOString();
    job.exit_code = record.exitCode;
    job.stderr_tail = record.stderrTail || null;
    const error = record.disposition === 'done' ? null : (record.error ?? record.status);
    try {
      fileJob(configDir, jobId, { ...job, state: record.disposition, error }, record.disposition);
    } catch (e) {
      return { outcome: 'pending', job, record, error: `ran, but cannot file the job (${errorCode(e)}); it stays pending` };
    }
    return { outcome: record.disposition, job, record };
  });
  return claim.claimed ? claim.value : { outcome: 'claimed' };
}

const errorCode = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

// Next to the lock: the process group of the job's running hook, so a claimant
// that takes over a stale lock (its holder was killed with -9) can see it runs on.
const groupNote = (configDir: string, jobId: string): string => join(locksDir(configDir), `${jobId}.pgid`);

function noteGroup(configDir: string, jobId: string, pgid: number): void {
  try {
    writeFileSync(groupNote(configDir, jobId), String(pgid), { mode: 0o600 });
  } catch {
    // without the note a takeover after a crash may start the job again: at least once still holds
  }
}

function previousRunAlive(configDir: string, jobId: string): boolean {
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

/** Whether any process of the group is alive (a zombie leader alone does not count). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pgid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc, or the leader is gone while others of its group run on
  }
}

/** Rewrites the job file `fileId` in pending/, then moves it to its folder by rename. */
export function fileJob(configDir: string, fileId: string, job: Job, folder: 'pending' | 'done' | 'failed'): void {
  writeJob(configDir, 'pending', job, fileId);
  if (folder !== 'pending') moveJob(configDir, fileId, 'pending', folder);
}

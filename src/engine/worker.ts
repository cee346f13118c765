// The detached worker: `fire` hands it the non-blocking hooks of one firing
// in a spec file and exits; the worker runs them (at most max_parallel_hooks
// at a time, detached hooks exempt), enforces timeouts, writes owner-only
// logs, records history and files durable jobs as done or failed.

import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Hook, clampParallel } from '../core/config.js';
import { ignoredResult } from '../core/decide.js';
import { startDetached } from '../run/detached.js';
import type { HookContext } from '../core/hook-template.js';
import { resolveInvocation } from '../run/invocation.js';
import { runBounded } from '../run/pool.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { sweepStaleTemp, TempFiles } from '../run/runtime.js';
import { type RunRecord, runHook } from '../run/spawn.js';
import { formatLog, logName as runLogName, pruneLogs } from '../run/logs.js';
import { jobRunHistoryStatus, runDurableJob } from '../outbox/run-job.js';
import type { RetryPolicy } from '../outbox/retry.js';
import { recordRun } from '../state/history.js';
import { type AsyncRun, finishRun, isCancelled, noteIgnored, sessionDir as sessionDirOf, updateRun } from '../state/sessions.js';

export interface WorkerRun {
  runId: string;
  hook: Hook;
  /** The envelope as the hook receives it. */
  payload: string;
  /** Set for durable hooks: the pending job this run delivers. */
  jobId?: string;
  /** Set for async hooks of a session: where the run is registered for drains. */
  sessionDir?: string;
}

export interface WorkerSpec {
  ctx: HookContext;
  maxParallel: number;
  runs: WorkerRun[];
  /** "Not yet" retries of durable jobs (outbox_retry_delay_seconds, outbox_max_retries). */
  retry?: RetryPolicy;
}

export async function runWorker(specPath: string): Promise<void> {
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as WorkerSpec;
  rmSync(specPath, { force: true });
  const temp = new TempFiles(spec.ctx.configDir);
  pruneLogs(spec.ctx.configDir);
  sweepStaleTemp(runtimeDir(spec.ctx.configDir, 'tmp'), '.json');
  // Claim the session records first, so drains can tell a dead worker from a slow one.
  for (const run of spec.runs) {
    if (run.sessionDir) updateRun(run.sessionDir, sessionRecord(run, null));
  }
  // Detached hooks are exempt from max_parallel_hooks: each is started at once, and not waited for.
  const detached = Promise.all(spec.runs.filter((r) => r.hook.execution.detach).map((run) => startDetachedRun(spec, run, temp)));
  await runBounded(spec.runs.filter((r) => !r.hook.execution.detach), clampParallel(spec.maxParallel), (run) => runOne(spec, run, temp));
  await detached;
  temp.cleanup();
}

// The job fire just wrote, never started: one a drain has started meanwhile is the drain's.
const FRESH = { retries: 0, last_started_at: null } as const;

async function runOne(spec: WorkerSpec, run: WorkerRun, temp: TempFiles): Promise<void> {
  const { ctx } = spec;
  const { hook, sessionDir } = run;
  const cancelled = (): boolean => (sessionDir ? isCancelled(sessionDir, run.runId) : false);
  const onSpawn = (pid: number): void => {
    if (sessionDir) updateRun(sessionDir, sessionRecord(run, pid));
  };
  try {
    if (cancelled()) return; // session_end came first: a durable job stays pending
    let record: RunRecord | undefined;
    let status: string | undefined;
    if (run.jobId) {
      const result = await runDurableJob(ctx.configDir, run.jobId, hook, ctx, temp, { cancelled, onSpawn, seen: FRESH, ...(spec.retry ? { retry: spec.retry } : {}) });
      record = result.record;
      status = jobRunHistoryStatus(result);
    } else {
      record = await runHook(hook, ctx, resolveInvocation(hook, ctx), run.payload, temp, { onSpawn, cancelled });
      status = record.historyStatus;
    }
    if (record && !run.jobId) writeLog(ctx.configDir, run, record); // a durable job writes its own log
    if (record?.result.kind === 'json' && ctx.sessionId) noteIgnoredDecision(ctx, run, record.result.value);
    if (status !== undefined) recordRun(ctx.configDir, hook, { status, session_id: ctx.sessionId, exit_code: record?.exitCode ?? null, duration_ms: record?.durationMs ?? null });
  } finally {
    if (sessionDir) finishRun(sessionDir, run.runId);
  }
}

/** A decision this non-blocking hook wrote, noted for the session's next `fire` to report. */
function noteIgnoredDecision(ctx: HookContext, run: WorkerRun, result: Parameters<typeof ignoredResult>[1]): void {
  const at = new Date().toISOString();
  const warnings = ignoredResult(run.hook, result).map((w) => ({ ...w, event: run.hook.event, message: `${w.message} (it ran on ${run.hook.event} at ${at})` }));
  try {
    noteIgnored(sessionDirOf(ctx.configDir, ctx.sessionId), run.runId, warnings);
  } catch {
    // best effort, like the log
  }
}

const sessionRecord = (run: WorkerRun, pid: number | null): AsyncRun => ({
  run_id: run.runId,
  hook_id: run.hook.id,
  event: run.hook.event,
  worker_pid: process.pid,
  pid,
  started_at: new Date().toISOString(),
});

const logName = (run: WorkerRun): string => runLogName(run.runId, run.hook.id);

function writeLog(configDir: string, run: WorkerRun, record: RunRecord): void {
  try {
    const dir = runtimeDir(configDir, 'logs');
    ensureDir(dir);
    // Temp file and rename: a reader (or `tail`) never sees a half-written log.
    const tmp = join(dir, `.${logName(run)}.${process.pid}.tmp`);
    try {
      writeFileSync(tmp, formatLog(run.hook, record), { mode: 0o600, flag: 'wx' });
      renameSync(tmp, join(dir, logName(run)));
    } finally {
      rmSync(tmp, { force: true });
    }
  } catch {
    // logs are best effort
  }
}

/**
 * detach: true: started and not waited for; a start that fails is a launch
 * error in history, the log and the job. A durable one is launched under its
 * job's claim, as the drain launches it (run-job.ts).
 */
async function startDetachedRun(spec: WorkerSpec, run: WorkerRun, temp: TempFiles): Promise<void> {
  const { ctx } = spec;
  const { hook } = run;
  let status: string | undefined;
  if (run.jobId) {
    try {
      status = jobRunHistoryStatus(await runDurableJob(ctx.configDir, run.jobId, hook, ctx, temp, { seen: FRESH }));
    } catch {
      return; // the job stays pending; drain-outbox delivers it later
    }
  } else {
    const start = await startDetached(hook, ctx, run.payload, run.runId);
    status = 'failure' in start ? start.failure.historyStatus : 'started';
  }
  // No session record to update: detach is fire_and_forget only, and only async runs have one.
  if (status !== undefined) recordRun(ctx.configDir, hook, { status, session_id: ctx.sessionId });
}

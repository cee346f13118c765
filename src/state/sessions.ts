// Which async hooks of a session are still running, so `fire` of after_turn
// and session_end can wait for them across processes. One small file per run,
// written before the worker starts it and removed when it ends; a run whose
// worker died is recognised by the worker's pid and dropped.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir, runtimeDir } from '../run/runtime.js';

export interface AsyncRun {
  run_id: string;
  hook_id: string;
  event: string;
  /** The worker that owns the run. */
  worker_pid: number | null;
  /** The hook's process group leader, once started. */
  pid: number | null;
  started_at: string;
}

export const sessionDir = (configDir: string, sessionId: string): string =>
  join(runtimeDir(configDir, 'state'), 'sessions', createHash('sha256').update(sessionId).digest('hex').slice(0, 32));

const recordPath = (dir: string, runId: string): string => join(dir, `${runId}.json`);
const cancelPath = (dir: string, runId: string): string => join(dir, `${runId}.cancel`);

export function registerRun(dir: string, run: AsyncRun): void {
  ensureDir(dir);
  try {
    writeFileSync(recordPath(dir, run.run_id), JSON.stringify(run), { mode: 0o600, flag: 'wx' });
  } catch (e) {
    rmSync(recordPath(dir, run.run_id), { force: true }); // no 0-byte record after a full disk
    throw e;
  }
}

export function updateRun(dir: string, run: AsyncRun): void {
  if (existsSync(recordPath(dir, run.run_id))) writeFileSync(recordPath(dir, run.run_id), JSON.stringify(run), { mode: 0o600 });
}

export function finishRun(dir: string, runId: string): void {
  rmSync(recordPath(dir, runId), { force: true });
  rmSync(cancelPath(dir, runId), { force: true });
}

export const isCancelled = (dir: string, runId: string): boolean => existsSync(cancelPath(dir, runId));

const alive = (pid: number | null): boolean => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The session's live async runs; records of dead workers are removed. */
export function liveRuns(dir: string): AsyncRun[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  const runs: AsyncRun[] = [];
  for (const name of names) {
    let run: AsyncRun;
    try {
      run = JSON.parse(readFileSync(join(dir, name), 'utf8')) as AsyncRun;
    } catch {
      continue; // being written or already gone
    }
    // A record no worker took within 30 s belongs to a worker that never started.
    const orphaned = run.worker_pid === null && Date.now() - Date.parse(run.started_at) > 30_000;
    if (orphaned || (run.worker_pid !== null && !alive(run.worker_pid))) finishRun(dir, run.run_id);
    else runs.push(run);
  }
  return runs;
}

/** Waits until `pending()` is empty or the deadline passes; resolves with what is left. */
export async function waitForRuns(pending: () => AsyncRun[], deadlineMs: number): Promise<AsyncRun[]> {
  for (;;) {
    const left = pending();
    if (left.length === 0 || Date.now() >= deadlineMs) return left;
    await new Promise((r) => setTimeout(r, Math.min(25, Math.max(1, deadlineMs - Date.now()))));
  }
}

/** Marks runs cancelled and kills their process groups: durable jobs stay pending. */
export function cancelRuns(dir: string, runs: AsyncRun[]): void {
  for (const run of runs) {
    writeFileSync(cancelPath(dir, run.run_id), '', { mode: 0o600 });
    if (run.pid) {
      try {
        process.kill(process.platform === 'win32' ? run.pid : -run.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

// Which async hooks of a session are still running, so `fire` of after_turn
// and session_end can wait for them across processes. One small file per run,
// written before the worker starts it and removed when it ends; a run whose
// worker died is recognised by the worker's pid and dropped.

import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../run/process-group.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { keyedName } from '../base/keyed-name.js';
import type { Warning } from '../core/diagnostics.js';

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
  join(runtimeDir(configDir, 'state'), 'sessions', keyedName(sessionId));

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
  // Replaced, not rewritten in place: liveRuns never reads half a record. No fsync: after a power cut no run is live.
  if (existsSync(recordPath(dir, run.run_id))) writeFileAtomic(recordPath(dir, run.run_id), JSON.stringify(run), { durable: false });
}

export function finishRun(dir: string, runId: string): void {
  rmSync(recordPath(dir, runId), { force: true });
  rmSync(cancelPath(dir, runId), { force: true });
}

export const isCancelled = (dir: string, runId: string): boolean => existsSync(cancelPath(dir, runId));

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
    if (orphaned || (run.worker_pid !== null && !processAlive(run.worker_pid))) finishRun(dir, run.run_id);
    else runs.push(run);
  }
  return runs;
}

/** Marks a run cancelled: the worker files its durable job as pending, not failed (see session-drain.ts). */
export const markCancelled = (dir: string, runId: string): void => writeFileSync(cancelPath(dir, runId), '', { mode: 0o600 });

// A non-blocking hook's decision is discarded; the worker notes it here so
// that the session's next `fire` reports it in its warnings (not only a log).
const ignoredPath = (dir: string, runId: string): string => join(dir, `${runId}.ignored`);

export function noteIgnored(dir: string, runId: string, warnings: readonly Warning[]): void {
  if (warnings.length === 0) return;
  ensureDir(dir);
  writeFileAtomic(ignoredPath(dir, runId), JSON.stringify(warnings), { durable: false });
}

/** The ignored decisions noted since the session's last `fire`, oldest first; each is reported once. */
export function takeIgnored(dir: string): Warning[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.ignored')).sort();
  } catch {
    return [];
  }
  const out: Warning[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const list = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      if (Array.isArray(list)) out.push(...(list as Warning[]).filter((w) => w && typeof w.message === 'string' && w.code === 'decision_ignored'));
    } catch {
      // half written or unreadable: dropped
    }
    rmSync(path, { force: true });
  }
  return out;
}

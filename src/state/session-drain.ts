// The drains of CONTRACT §6.3, across processes: `fire` of after_turn waits
// for the session's async hooks (for at most AFTER_TURN_MAX_WAIT_MS, then
// leaves them running and says so); `fire` of session_end waits at most the
// grace it is given, then cancels and kills what is left (a durable job stays
// pending). The runs are those the workers registered in the session dir.

import { killGroup } from '../run/process-group.js';
import { type AsyncRun, liveRuns, markCancelled } from './sessions.js';

/**
 * The longest `fire` of after_turn waits for the session's async hooks. Each
 * is bounded by its own timeout (at most 86400 s), so without this a worker
 * stuck on a long one would hold the agent's turn for as long.
 */
export const AFTER_TURN_MAX_WAIT_MS = 10 * 60_000;

const POLL_MS = 25;

/** Waits until `pending()` is empty or the deadline passes; resolves with what is left. */
export async function waitForRuns(pending: () => AsyncRun[], deadlineMs: number): Promise<AsyncRun[]> {
  for (;;) {
    const left = pending();
    if (left.length === 0 || Date.now() >= deadlineMs) return left;
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(1, deadlineMs - Date.now()))));
  }
}

/** after_turn: waits for the session's async runs (user_interrupt's excepted), at most `maxWaitMs`; returns those still running, untouched. */
export const waitForTurn = (dir: string, maxWaitMs = AFTER_TURN_MAX_WAIT_MS): Promise<AsyncRun[]> =>
  waitForRuns(() => liveRuns(dir).filter((r) => r.event !== 'user_interrupt'), Date.now() + maxWaitMs);

/** session_end: waits at most `graceMs` for the session's async runs, then cancels and kills the rest; returns those it killed. */
export async function endSession(dir: string, graceMs: number): Promise<AsyncRun[]> {
  const left = await waitForRuns(() => liveRuns(dir), Date.now() + graceMs);
  cancelRuns(dir, left);
  return left;
}

/** Marks runs cancelled (so their durable jobs stay pending), then kills their process groups. */
export function cancelRuns(dir: string, runs: readonly AsyncRun[]): void {
  for (const run of runs) {
    markCancelled(dir, run.run_id);
    if (run.pid) killGroup(run.pid, 'SIGKILL');
  }
}

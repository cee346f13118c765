// When `fire` cannot hand its non-blocking hooks to a worker (a full disk,
// say), it still prints its decision: those hooks are reported as launch
// errors with one warning, and their session records are dropped so that
// after_turn does not wait for runs that will never start.

import type { Decision } from '../core/decide.js';
import { finishRun } from '../state/sessions.js';
import type { WorkerRun } from './worker.js';

export function reportWorkerFailure(decision: Decision, runs: WorkerRun[], why: string): void {
  const reason = `the worker could not be started (${why})`;
  for (const run of runs) {
    const line = decision.hooks.find((h) => h.status === 'started' && h.id === run.hook.id && h.source === run.hook.source);
    if (line) Object.assign(line, { status: 'launch_error', reason });
    if (run.sessionDir) {
      try {
        finishRun(run.sessionDir, run.runId);
      } catch {
        // the record ages out by itself
      }
    }
  }
  const durable = runs.filter((r) => r.jobId).length;
  decision.warnings.push({
    code: 'outbox_unavailable',
    message: `${reason}: ${runs.length} non-blocking hook${runs.length === 1 ? '' : 's'} did not run${durable ? `; ${durable} durable job${durable === 1 ? '' : 's'} stay pending for drain-outbox` : ''}`,
  });
}

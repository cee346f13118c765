// One record of how a hook process ended, and the one ordered classification
// of it that `fire`, the detached worker and the drain all use: the status a
// hooks[] line or history entry shows, and where a durable job goes next.
// Pure: the runner fills the record, nothing here touches a process or a file.

import type { JsonObject } from './json.js';
import type { Outcome } from './decide.js';

/** The result file after the hook exited, as the runner found it. */
export type ResultFile =
  | { state: 'absent' }
  | { state: 'empty' }
  | { state: 'json'; value: JsonObject }
  | { state: 'invalid'; reason: string }
  | { state: 'not_a_file' };

export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  /** The runner killed the group because the timeout passed. */
  timedOut: boolean;
  /** Stopped on purpose by a drain or session_end: not the hook's failure. */
  cancelled: boolean;
  /** Died of a signal that chrys-hooks did not send (OOM killer, a user's kill). */
  killedFromOutside: boolean;
  /** The process never ran (or its files could not be prepared). */
  launchError?: string;
  timeoutMs?: number;
  stdoutTail: string;
  stderrTail: string;
  durationMs: number;
  resultFile: ResultFile;
}

/** Where a durable job goes after this run. */
export type Disposition = 'done' | 'failed' | 'pending';

export interface Classified {
  status: Outcome['status'];
  disposition: Disposition;
  error?: string;
  result: Outcome['result'];
}

const NONE: Outcome['result'] = { kind: 'none' };

/**
 * The first rule that applies wins: a launch error, a cancellation, a
 * timeout, a kill from outside, any other signal, a non-zero exit; only a
 * clean exit 0 reads the result file.
 */
export function classifyOutcome(o: ProcessOutcome): Classified {
  if (o.launchError !== undefined) return { status: 'launch_error', disposition: 'failed', error: o.launchError, result: NONE };
  if (o.cancelled) return { status: 'failed', disposition: 'pending', error: 'cancelled', result: NONE };
  if (o.timedOut) {
    const after = o.timeoutMs === undefined ? '' : ` after ${o.timeoutMs / 1000} s`;
    return { status: 'timeout', disposition: 'failed', error: `timed out${after} and was killed`, result: NONE };
  }
  if (o.signal !== null) {
    // Killed from outside: not the hook's verdict, so a durable job is delivered again later.
    return { status: 'failed', disposition: o.killedFromOutside ? 'pending' : 'failed', error: `was killed by ${o.signal}`, result: NONE };
  }
  if (o.exitCode !== 0) return { status: 'failed', disposition: 'failed', error: `exited with status ${o.exitCode}`, result: NONE };
  return { status: 'ok', disposition: 'done', result: resultOf(o.resultFile) };
}

function resultOf(file: ResultFile): Outcome['result'] {
  switch (file.state) {
    case 'empty':
      return NONE;
    case 'json':
      return { kind: 'json', value: file.value };
    case 'invalid':
      return { kind: 'invalid', reason: file.reason };
    case 'absent':
      return { kind: 'invalid', reason: 'the result file was deleted' };
    case 'not_a_file':
      return { kind: 'invalid', reason: 'the result file was replaced by something that is not a regular file' };
  }
}

/**
 * The one mapping from a run to the status its history entry and log show:
 * a cancelled run is `cancelled`, else its hooks[] status (as classified, or
 * as its agent's rules re-read it).
 */
export const historyStatus = (o: Pick<ProcessOutcome, 'cancelled'>, status: string): string => (o.cancelled ? 'cancelled' : status);

/**
 * The history status of a durable job's delivery attempt, the same for the
 * worker and the drain: `deferred` when it went back to pending/ for later,
 * else its run's; undefined when no hook ran (another claimant has the job,
 * it was gone, refused, or could not be started), so nothing is recorded.
 */
export const jobHistoryStatus = (jobOutcome: string, run: { historyStatus: string } | undefined): string | undefined =>
  run === undefined ? undefined : jobOutcome === 'deferred' ? 'deferred' : run.historyStatus;

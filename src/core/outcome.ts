// One record of how a hook process ended, and the one ordered classification
// of it that `fire`, the detached worker and the drain all use: the status a
// hooks[] line or history entry shows, and where a durable job goes next.
// Pure: the runner fills the record, nothing here touches a process or a file.

import type { JsonObject } from './json.js';
import type { Outcome } from './decide.js';
import { type AgentRun, readAgentOutcome } from './protocols/foreign-output.js';
import type { AgentProtocol } from './protocols/names.js';

/** The result file after the hook exited, as the runner found it. */
export type ResultFile =
  | { state: 'absent' }
  | { state: 'empty' }
  | { state: 'json'; value: JsonObject }
  | { state: 'invalid'; reason: string }
  | { state: 'not_a_file' }
  /** A regular file the runner could not read (an I/O error, a lease): why, with the system's code. */
  | { state: 'unreadable'; reason: string };

/** A foreign (`run.protocol`) hook's reading: its agent's rules read the exit code and output; it has no result file. */
export interface AgentReading {
  protocol: AgentProtocol;
  /** The agent's name of the event, as the hook's input named it. */
  agentEvent: string;
  /** on_error: block — an exit other than 0 and 2 stays a failure whatever stdout says. */
  failureBlocks: boolean;
}

export interface ProcessOutcome {
  /** What was started (after a verified copy of a script was swapped in), or would have been. */
  argv: readonly string[];
  cwd: string;
  exitCode: number | null;
  signal: string | null;
  /** The runner killed the group because the timeout passed. */
  timedOut: boolean;
  /** Stopped on purpose by a drain or session_end: not the hook's failure. */
  cancelled: boolean;
  /** Died of a signal that chrys-hooks did not send (OOM killer, a user's kill). */
  killedFromOutside: boolean;
  /** The process never started: its files could not be prepared, or spawning failed before `'spawn'`. */
  launchError?: string;
  /** The system's code of the launch error (ENOENT, EACCES), when it had one. */
  errorCode?: string;
  /**
   * An error once the process was running (a failed kill, the caller's onSpawn
   * throwing). Kept for the record, never classified: the process still ran
   * and ended by itself, and how it ended is the verdict.
   */
  errorAfterSpawn?: string;
  timeoutMs?: number;
  /** The captured output (head and tail kept past the limit), and whether its middle was dropped. */
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdoutTail: string;
  stderrTail: string;
  durationMs: number;
  resultFile: ResultFile;
  /** Set for a foreign hook, whose agent's rules replace the exit-code and result-file rules. */
  agentReading?: AgentReading;
}

/** Where a durable job goes after this run. */
export type Disposition = 'done' | 'failed' | 'pending';

export interface Classified {
  status: Outcome['status'];
  disposition: Disposition;
  error?: string;
  result: Outcome['result'];
  failure?: Outcome['failure'];
  ask?: Outcome['ask'];
}

const NONE: Outcome['result'] = { kind: 'none' };

/**
 * The first rule that applies wins: a launch error, a cancellation, a
 * timeout, a signal (from outside or not), the agent's rules for a foreign
 * hook, a non-zero exit; only a clean exit 0 of a Chrys hook reads the
 * result file, whose problems make an invalid result, never a failure.
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
  if (o.agentReading) return readByAgent(o, o.agentReading);
  if (o.exitCode !== 0) return { status: 'failed', disposition: 'failed', error: `exited with status ${o.exitCode}`, result: NONE };
  return { status: 'ok', disposition: 'done', result: resultOf(o.resultFile) };
}

/**
 * A foreign hook that exited, read by its agent's rules (exit 2 may block,
 * stdout JSON may decide). Under on_error: block a failed exit stays one;
 * otherwise a failed exit whose stdout decides is ok, the failure kept for a
 * hook_failed warning, and its job done.
 */
function readByAgent(o: ProcessOutcome, reading: AgentReading): Classified {
  const exitFailure = o.exitCode === 0 ? undefined : `exited with status ${o.exitCode}`;
  const failedExit = exitFailure !== undefined && o.exitCode !== 2;
  if (failedExit && reading.failureBlocks) return { status: 'failed', disposition: 'failed', error: exitFailure, result: NONE };
  const exited: AgentRun = {
    status: exitFailure === undefined ? 'ok' : 'failed',
    exitCode: o.exitCode,
    signal: null,
    durationMs: o.durationMs,
    ...(exitFailure !== undefined ? { error: exitFailure } : {}),
    stderrTail: o.stderrTail,
    result: NONE,
    stdout: o.stdout,
    stderr: o.stderr,
  };
  const read = readAgentOutcome(reading.protocol, reading.agentEvent, exited);
  return {
    status: read.status,
    disposition: read.status === 'ok' ? 'done' : 'failed',
    ...(read.error !== undefined ? { error: read.error } : {}),
    result: read.result,
    ...(failedExit && read.status === 'ok' ? { failure: exitFailure } : {}),
    ...(read.ask ? { ask: read.ask } : {}),
  };
}

function resultOf(file: ResultFile): Outcome['result'] {
  switch (file.state) {
    case 'empty':
      return NONE;
    case 'json':
      return { kind: 'json', value: file.value };
    case 'invalid':
    case 'unreadable':
      return { kind: 'invalid', reason: file.reason };
    case 'absent':
      return { kind: 'invalid', reason: 'the result file was deleted' };
    case 'not_a_file':
      return { kind: 'invalid', reason: 'the result file was replaced by something that is not a regular file' };
  }
}

/**
 * The one mapping from a run to the status its history entry and log show:
 * a cancelled run is `cancelled`, else its hooks[] status as classified.
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

// A durable job's output while its hook runs, for `outbox logs --follow`:
// <config>/hooks/logs/live/<job_id>.log, made on the first chunk (a job that
// prints nothing costs nothing), appended to as chunks come, removed once the
// run ended (its log, written then, holds the output's head and tail). Only
// the machine that runs the job has it. Best effort: a live log that cannot
// be written is given up, never the run.

import { closeSync, constants, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from '../base/runtime-layout.js';
import { logsDir } from './logs.js';
import type { OnOutput } from './spawn.js';

// A job id is a file name here only when it is a plain one (a hand-written job's may not be).
const PLAIN_ID = /^[\w.-]{1,200}$/;

export const liveLogsDir = (configDir: string): string => join(logsDir(configDir), 'live');

/** Where the live output of the job is, or undefined for an id that cannot name a file. */
export const liveLogPath = (configDir: string, jobId: string): string | undefined => (PLAIN_ID.test(jobId) && !/^\.+$/.test(jobId) ? join(liveLogsDir(configDir), `${jobId}.log`) : undefined);

export class LiveLog {
  private fd: number | undefined;
  private givenUp = false;

  constructor(
    private readonly configDir: string,
    private readonly path: string | undefined,
  ) {}

  /** For RunOptions.onOutput. */
  readonly write: OnOutput = (_stream, chunk) => {
    if (this.givenUp || this.path === undefined) return;
    try {
      if (this.fd === undefined) {
        ensureDir(liveLogsDir(this.configDir));
        // O_TRUNC: what a killed earlier start left is not this run's; O_NOFOLLOW: never through a symlink.
        this.fd = openSync(this.path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
      }
      writeSync(this.fd, chunk);
    } catch {
      this.givenUp = true;
    }
  };

  /** The run ended: the live log goes, and with it one an earlier, killed start left. */
  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    if (this.path === undefined) return;
    try {
      unlinkSync(this.path);
    } catch {
      // none: the hook printed nothing, and no earlier start left one
    }
  }
}

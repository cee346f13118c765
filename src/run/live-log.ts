// A durable job's output while its hook runs, for `outbox logs --follow`:
// <config>/hooks/logs/live/<job_id>.log, made on the first chunk (a job that
// prints nothing costs nothing), appended to as chunks come, removed once the
// run ended (its log, written then, holds the output's head and tail). Only
// the machine that runs the job has it (the PostgreSQL outbox keeps it in the
// database: outbox/pg/live-output.ts). Best effort: a live log that cannot
// be written is given up, never the run.

import { closeSync, constants, fstatSync, openSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
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

/** A job's output as its runs print it, for `outbox logs --follow`, whatever keeps it. */
export interface LiveSource {
  /** What was printed since the last call, in order (a next run's output after the last's). */
  next(): Promise<Buffer[]>;
  close(): void;
  /** Why the live output can no longer be read, once it cannot (the run's log still comes when it ends). */
  readonly givenUp?: string | undefined;
}

/**
 * The live log, read as it grows. It stays open once found, so what the hook
 * printed last is still read after the runner removed the file at the run's
 * end; a new file in its place (the next run) is read from its beginning.
 */
export class LiveLogReader implements LiveSource {
  private fd: number | undefined;
  private offset = 0;

  constructor(private readonly path: string | undefined) {}

  next(): Promise<Buffer[]> {
    const out: Buffer[] = [];
    this.pump(out);
    return Promise.resolve(out);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private pump(out: Buffer[]): void {
    if (this.path === undefined) return;
    if (this.fd === undefined) {
      try {
        this.fd = openSync(this.path, constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch {
        return; // no run is printing now
      }
      this.offset = 0;
    }
    this.readToEnd(this.fd, out);
    let now: number;
    try {
      now = statSync(this.path).ino;
    } catch {
      return; // removed: the run ended; the next call reads what is left
    }
    if (now !== fstatSync(this.fd).ino) {
      this.readToEnd(this.fd, out);
      this.close();
      this.pump(out);
    }
  }

  private readToEnd(fd: number, out: Buffer[]): void {
    const { size } = fstatSync(fd);
    if (size < this.offset) this.offset = 0; // truncated: a next run wrote it anew
    while (this.offset < size) {
      const chunk = Buffer.alloc(Math.min(size - this.offset, 1 << 20));
      const n = readSync(fd, chunk, 0, chunk.length, this.offset);
      if (n === 0) return;
      this.offset += n;
      out.push(chunk.subarray(0, n));
    }
  }
}

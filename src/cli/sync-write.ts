// Writing a command's result with fs.writeSync, not through process.stdout:
// creating the stdout stream costs `fire` 2.7–4.4 ms on a pipe (README
// "Performance"), and one write of one decision needs no stream. A
// non-blocking pipe (the agent's choice, shared with us) may take only part
// of it: the rest is handed to the stream, which waits for the pipe to drain
// in the event loop instead of spinning on EAGAIN.

import { writeSync } from 'node:fs';

export type SyncWrite =
  /** All of it was written. */
  | { done: true }
  /** The pipe is full (EAGAIN): `rest` was not written. */
  | { done: false; rest: Buffer }
  /** A write failed: EPIPE, ENOSPC, EBADF... */
  | { done: false; error: string };

/** Writes all of `data` to `fd` that the fd takes without blocking. */
export function writeAllSync(fd: number, data: string | Buffer): SyncWrite {
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += writeSync(fd, buffer, offset, buffer.length - offset);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return { done: false, rest: buffer.subarray(offset) };
      if (code === 'EINTR') continue;
      return { done: false, error: code };
    }
  }
  return { done: true };
}

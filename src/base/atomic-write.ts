// The one way chrys-hooks replaces a file: a temp file in the same directory
// (created with O_EXCL, so never through a symlink planted under its name),
// then a rename over the target (which replaces a symlink there, never
// writes through it). A reader sees the old file or the new one, never half.

import { closeSync, constants, fsync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomHex } from './lazy-crypto.js';

export interface AtomicWriteOptions {
  /** File mode of the new file; 0600 unless said. */
  mode?: number;
  /**
   * fsync the data before the rename, so a power cut leaves the old file or
   * the whole new one, and the directory after it, so that the rename itself
   * (for a new file, its name) outlives a power cut: until the directory is
   * written, a new job's file could be found after a reboot as its temp
   * file, or not at all. Only where the file is the one record of something
   * undelivered; each caller that skips it says why.
   */
  durable: boolean;
}

/** The temp name: next to the target (a rename within one directory is atomic), with the writer's pid for sweepStaleTemp. */
export const tempPathFor = (path: string): string => `${path}.${process.pid}.${randomHex(4)}.tmp`;

export function writeFileAtomic(path: string, content: string | Uint8Array, opts: AtomicWriteOptions): void {
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, 'wx', opts.mode ?? 0o600);
  try {
    try {
      writeFileSync(fd, content); // loops until all is written: one writeSync on a filling disk may write part and return
      if (opts.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true }); // a full disk must not leave 0-byte temp files behind
    throw e;
  }
  if (opts.durable) syncDirectory(dirname(path));
}

// After the rename the file is in place: a directory that cannot be synced (a
// filesystem or platform without it) does not make the write a failure,
// which would have its caller write it again.
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // not syncable here
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const fsyncOffThread = (fd: number): Promise<void> => new Promise((resolve, reject) => fsync(fd, (e) => (e ? reject(e) : resolve())));

async function syncDirectoryAsync(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    return; // not syncable here
  }
  try {
    await fsyncOffThread(fd);
  } catch {
    // not syncable here
  } finally {
    closeSync(fd);
  }
}

/**
 * writeFileAtomic for a process that runs other work meanwhile (the drain):
 * only the fsyncs, which wait on the disk, leave the thread, so the waits of
 * jobs run at once overlap. The other calls are made in place: each trip
 * through the thread pool cost more CPU than the call itself (measured on
 * the drain, docs/performance.md).
 */
export async function writeFileAtomicAsync(path: string, content: string, opts: AtomicWriteOptions): Promise<void> {
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, 'wx', opts.mode ?? 0o600);
  try {
    try {
      writeFileSync(fd, content); // loops until all is written: one writeSync on a filling disk may write part and return
      if (opts.durable) await fsyncOffThread(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true }); // a full disk must not leave 0-byte temp files behind
    throw e;
  }
  if (opts.durable) await syncDirectoryAsync(dirname(path));
}

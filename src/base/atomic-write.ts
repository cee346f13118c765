// The one way chrys-hooks replaces a file: a temp file in the same directory
// (created with O_EXCL, so never through a symlink planted under its name),
// then a rename over the target (which replaces a symlink there, never
// writes through it). A reader sees the old file or the new one, never half.

import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { randomHex } from './lazy-crypto.js';

export interface AtomicWriteOptions {
  /** File mode of the new file; 0600 unless said. */
  mode?: number;
  /**
   * fsync the data before the rename, so a power cut leaves the old file or
   * the whole new one. Only where the file is the one record of something
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
}

export async function writeFileAtomicAsync(path: string, content: string, opts: AtomicWriteOptions): Promise<void> {
  const tmp = tempPathFor(path);
  const file = await open(tmp, 'wx', opts.mode ?? 0o600);
  try {
    try {
      await file.writeFile(content);
      if (opts.durable) await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }); // a full disk must not leave 0-byte temp files behind
    throw e;
  }
}

// The durable outbox on disk (CONTRACT §9): outbox/{pending,done,failed}/<job_id>.json.
// Every write is a temp file then a rename, fsync'd where the file is the only
// record of an undelivered job (see the README); jobs move between folders only by rename.

import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDir, runtimeDir } from '../run/runtime.js';

export type Folder = 'pending' | 'done' | 'failed';
export const FOLDERS: readonly Folder[] = ['pending', 'done', 'failed'];

export const outboxDir = (configDir: string, folder: Folder): string => join(runtimeDir(configDir, 'outbox'), folder);
export const jobPath = (configDir: string, folder: Folder, jobId: string): string => join(outboxDir(configDir, folder), `${jobId}.json`);
export const locksDir = (configDir: string): string => join(runtimeDir(configDir, 'outbox'), 'locks');

/** Writes `content` to `path` atomically with mode 0600: temp file, fsync, rename. */
export function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true }); // a full disk must not leave 0-byte temp files behind
    throw e;
  }
}

/**
 * writeAtomic off the event loop, for the drain. `durable: false` skips the
 * fsync: for a file whose loss after a power cut costs a record, never a
 * delivery (a job already run, now filed in done/).
 */
export async function writeAtomicAsync(path: string, content: string, durable = true): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(tmp, 'wx', 0o600);
  try {
    try {
      await file.writeFile(content);
      if (durable) await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }); // a full disk must not leave 0-byte temp files behind
    throw e;
  }
}

export function ensureOutbox(configDir: string): void {
  for (const f of FOLDERS) ensureDir(outboxDir(configDir, f));
  ensureDir(locksDir(configDir));
}

/** Job ids in a folder, oldest first (ids start with their creation time). */
export function listJobs(configDir: string, folder: Folder): string[] {
  try {
    return readdirSync(outboxDir(configDir, folder))
      .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  } catch {
    return [];
  }
}

export async function listJobsAsync(configDir: string, folder: Folder): Promise<string[]> {
  try {
    return (await readdir(outboxDir(configDir, folder)))
      .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  } catch {
    return [];
  }
}

/** readJobText off the event loop: never blocks on a FIFO, never follows a symlink. */
export async function readJobTextAsync(configDir: string, folder: Folder, jobId: string): Promise<string | undefined> {
  let file;
  try {
    file = await open(jobPath(configDir, folder, jobId), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    return (await file.stat()).isFile() ? await file.readFile('utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

/** A job file's text; undefined when it is gone or is not a regular file (never blocks on a FIFO, never follows a symlink). */
export function readJobText(configDir: string, folder: Folder, jobId: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(jobPath(configDir, folder, jobId), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether a job file is something other than a regular file (a FIFO, a directory, a symlink...). */
export function isOddJobFile(configDir: string, folder: Folder, jobId: string): boolean {
  try {
    return !lstatSync(jobPath(configDir, folder, jobId)).isFile();
  } catch {
    return false;
  }
}

/** Moves a job file between folders by rename (atomic on one filesystem). */
export function moveJob(configDir: string, jobId: string, from: Folder, to: Folder): void {
  ensureDir(outboxDir(configDir, to));
  renameSync(jobPath(configDir, from, jobId), jobPath(configDir, to, jobId));
}

export async function moveJobAsync(configDir: string, jobId: string, from: Folder, to: Folder): Promise<void> {
  ensureDir(outboxDir(configDir, to));
  await rename(jobPath(configDir, from, jobId), jobPath(configDir, to, jobId));
}

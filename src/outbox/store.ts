// The durable outbox on disk (CONTRACT §9): outbox/{pending,done,failed}/<job_id>.json.
// Every write is a temp file then a rename, fsync'd where the file is the only
// record of an undelivered job (see docs/outbox.md); jobs move between folders only by rename.

import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { ChrysError } from '../core/errors.js';
import { writeFileAtomic, writeFileAtomicAsync } from '../base/atomic-write.js';

export type Folder = 'pending' | 'done' | 'failed';
export const FOLDERS: readonly Folder[] = ['pending', 'done', 'failed'];

export const outboxDir = (configDir: string, folder: Folder): string => join(runtimeDir(configDir, 'outbox'), folder);
export const jobPath = (configDir: string, folder: Folder, jobId: string): string => join(outboxDir(configDir, folder), `${jobId}.json`);
export const locksDir = (configDir: string): string => join(runtimeDir(configDir, 'outbox'), 'locks');

/** Writes a job file atomically (0600), fsync'd: it may be the only record of an undelivered job. */
export const writeAtomic = (path: string, content: string): void => writeFileAtomic(path, content, { durable: true });

/**
 * writeAtomic whose fsyncs leave the thread, for the drain (writeFileAtomicAsync).
 * `durable: false` skips them: for a file whose loss after a power cut costs a
 * record, never a delivery (a job already run, now filed in done/).
 */
export const writeAtomicAsync = (path: string, content: string, durable = true): Promise<void> => writeFileAtomicAsync(path, content, { durable });

export function ensureOutbox(configDir: string): void {
  for (const f of FOLDERS) ensureDir(outboxDir(configDir, f));
  ensureDir(locksDir(configDir));
}

/**
 * The outbox folders that already exist, held to what ensureOutbox makes:
 * 0700 and no symlink. The drain rewrites jobs in pending/ (and puts its temp
 * files there) without creating it, so a pre-made 0755 folder is tightened
 * here rather than used as it is; a folder that does not exist is not made
 * (a drain of an empty outbox creates nothing), and a file where a folder
 * should be is left to listJobs to report.
 */
export function tightenOutbox(configDir: string): void {
  for (const dir of [...FOLDERS.map((f) => outboxDir(configDir, f)), locksDir(configDir)]) {
    let isDir: boolean;
    try {
      const stat = lstatSync(dir);
      isDir = stat.isDirectory() || stat.isSymbolicLink();
    } catch {
      continue;
    }
    if (!isDir) continue;
    try {
      ensureDir(dir);
    } catch (e) {
      throw outboxUnreadable(dir, e);
    }
  }
}

/**
 * Why the outbox cannot be read, for the caller to report (exit 74): only a
 * missing folder is an empty outbox and only a missing file is "no job";
 * anything else (no permission, a file where a folder should be) is never
 * taken for either.
 */
export function outboxUnreadable(path: string, e: unknown): ChrysError {
  const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  return new ChrysError('outbox_unreadable', `cannot read the outbox at ${path} (${why})`, 'make the outbox folders directories you own (0700) and its job files readable, then run the command again');
}

const errnoOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;
const jobIdsIn = (names: string[]): string[] => names.filter((f) => f.endsWith('.json') && !f.startsWith('.')).map((f) => f.slice(0, -'.json'.length)).sort();

/** Job ids in a folder, oldest first (ids start with their creation time); none when the folder does not exist. */
export function listJobs(configDir: string, folder: Folder): string[] {
  const dir = outboxDir(configDir, folder);
  try {
    return jobIdsIn(readdirSync(dir));
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return [];
    throw outboxUnreadable(dir, e);
  }
}

const JOB_OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
// Gone (ENOENT) or a symlink (ELOOP, O_NOFOLLOW): not a job to read; isOddJobFile tells the two apart.
const NOT_A_JOB = new Set(['ENOENT', 'ELOOP']);

/**
 * A job file's text; undefined when it is gone or is not a regular file
 * (never blocks on a FIFO, never follows a symlink); throws outboxUnreadable
 * when it cannot be read.
 */
export function readJobText(configDir: string, folder: Folder, jobId: string): string | undefined {
  const path = jobPath(configDir, folder, jobId);
  let fd: number;
  try {
    fd = openSync(path, JOB_OPEN_FLAGS);
  } catch (e) {
    if (NOT_A_JOB.has(errnoOf(e) ?? '')) return undefined;
    throw outboxUnreadable(path, e);
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } catch (e) {
    throw outboxUnreadable(path, e);
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

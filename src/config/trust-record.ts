// The trust record, <config_dir>/hooks/state/trust.json: written only by
// `trust` and `untrust`, atomically (temp file + rename), 0600, and never
// through a symbolic link; read without following one.

import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type TrustRecord, parseTrustRecord } from '../core/trust.js';
import { ensureDir, runtimeDir } from '../base/runtime-layout.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { inside } from './trust-files.js';

export const trustRecordPath = (configDir: string): string => join(runtimeDir(configDir, 'state'), 'trust.json');

export type RecordRead = { ok: true; record: TrustRecord } | { ok: false; problem: string };

const EMPTY = (): TrustRecord => ({ version: 1, workspaces: {} });

export function readTrustRecord(configDir: string): RecordRead {
  const path = trustRecordPath(configDir);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: true, record: EMPTY() };
    if (code === 'ELOOP') return { ok: false, problem: 'it is a symbolic link' };
    return { ok: false, problem: code === 'EACCES' ? 'permission denied' : (e as Error).message };
  }
  try {
    if (fstatSync(fd).isDirectory()) return { ok: false, problem: 'it is a directory, not a file' };
    const record = parseTrustRecord(JSON.parse(readFileSync(fd, 'utf8')));
    return record ? { ok: true, record } : { ok: false, problem: 'it is not a chrys-hooks trust record (version 1)' };
  } catch (e) {
    return { ok: false, problem: e instanceof SyntaxError ? `it is not valid JSON (${e.message})` : (e as Error).message };
  } finally {
    closeSync(fd);
  }
}

/** Writes the record; throws with a sentence saying why it cannot. */
export function writeTrustRecord(configDir: string, record: TrustRecord): void {
  const path = trustRecordPath(configDir);
  ensureDir(dirname(path));
  for (const p of [dirname(dirname(path)), dirname(path), path]) {
    if (isSymlink(p)) throw new Error(`${p} is a symbolic link; the trust record is never written through one (remove it and run trust again)`);
  }
  try {
    if (lstatSync(path).isDirectory()) throw new Error(`${path} is a directory; remove it and run trust again`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  // fsync'd: it is the only record of the user's trust decisions, and written rarely.
  writeFileAtomic(path, JSON.stringify(record, null, 2) + '\n', { durable: true });
}

/**
 * Why the record's directory cannot be trusted to hold it, if it cannot: a
 * symlinked hooks/ or hooks/state/ (it could lead anywhere, the workspace
 * included), or a real location inside the workspace, which could then ship
 * a record trusting itself. Checked on read as on write.
 */
export function recordDirProblem(configDir: string, workspaceReal: string): string | undefined {
  const stateDir = runtimeDir(configDir, 'state');
  for (const dir of [dirname(stateDir), stateDir]) {
    if (isSymlink(dir)) return `${dir} is a symbolic link`;
  }
  const real = nearestRealPath(stateDir);
  if (real !== undefined && inside(real, workspaceReal)) return `it lies inside the workspace ${workspaceReal} (${real})`;
  return undefined;
}

/** The real path of `path`, or of its nearest existing ancestor (with the rest appended). */
function nearestRealPath(path: string): string | undefined {
  for (let dir = path, rest = ''; ; dir = dirname(dir)) {
    try {
      return join(realpathSync(dir), rest);
    } catch {
      if (dirname(dir) === dir) return undefined;
      rest = join(basename(dir), rest);
    }
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
